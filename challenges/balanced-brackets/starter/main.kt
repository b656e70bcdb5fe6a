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

fun balanced(text: String): Boolean {
    // TODO: return true when the brackets of text are balanced.
    return false
}

fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }
    val count = data[0].toInt()
    for (text in data.subList(1, 1 + count)) println(if (balanced(text)) "YES" else "NO")
}
