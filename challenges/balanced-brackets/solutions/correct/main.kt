fun balanced(text: String): Boolean {
    val stack = ArrayDeque<Char>()
    for (bracket in text) {
        when (bracket) {
            '(', '[', '{' -> stack.addLast(bracket)
            else -> {
                val opener = when (bracket) { ')' -> '('; ']' -> '['; else -> '{' }
                if (stack.isEmpty() || stack.removeLast() != opener) return false
            }
        }
    }
    return stack.isEmpty()
}

fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }
    val count = data[0].toInt()
    val answers = data.subList(1, 1 + count).map { if (balanced(it)) "YES" else "NO" }
    if (answers.isNotEmpty()) println(answers.joinToString("\n"))
}
