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
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = data[0]
    val m = data[1]
    val rules = List(m) { Pair(data[2 + 2 * it], data[3 + 2 * it]) }
    // TODO: print an order of tasks 1..n that obeys every rule, or "IMPOSSIBLE".
}
