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
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toLong() }
    val n = data[0].toInt()
    val intervals = List(n) { longArrayOf(data[1 + 2 * it], data[2 + 2 * it]) }
    // TODO: merge the overlapping intervals and print them from left to right, one "l r" per line.
}
