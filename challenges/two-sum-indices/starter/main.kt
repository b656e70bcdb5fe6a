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
    val target = data[1].toLong()
    val values = LongArray(n) { data[2 + it].toLong() }
    // TODO: find positions i < j with values[i] + values[j] == target (smallest j, then smallest i)
    // and print them counting from 1, or "0 0" when there is no such pair.
    println("0 0")
}
