fun balanced(text: String): Boolean {
    // Mistake: one counter per kind checks the numbers of brackets but not how they nest.
    val openCount = IntArray(3)
    for (bracket in text) {
        when (bracket) {
            '(' -> openCount[0]++
            '[' -> openCount[1]++
            '{' -> openCount[2]++
            ')' -> openCount[0]--
            ']' -> openCount[1]--
            else -> openCount[2]--
        }
        if (openCount.any { it < 0 }) return false
    }
    return openCount.all { it == 0 }
}

fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }
    val count = data[0].toInt()
    val answers = data.subList(1, 1 + count).map { if (balanced(it)) "YES" else "NO" }
    if (answers.isNotEmpty()) println(answers.joinToString("\n"))
}
