/** Optional: prints one step for the app's step player, e.g. step("action" to "look", "j" to 3). */
fun step(vararg fields: Pair<String, Any?>) {
    println("@step " + fields.joinToString(", ", "{", "}") { (key, value) -> toJson(key) + ": " + toJson(value) })
}

fun toJson(value: Any?): String = when (value) {
    null -> "null"
    is String -> "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\""
    is IntArray -> value.joinToString(", ", "[", "]")
    is LongArray -> value.joinToString(", ", "[", "]")
    is Iterable<*> -> value.joinToString(", ", "[", "]") { toJson(it) }
    else -> value.toString()
}

fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = data[0].toInt()
    val values = LongArray(n) { data[1 + it].toLong() }
    // TODO: print every distinct permutation of values once, one per line (any order).
}
