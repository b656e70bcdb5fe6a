val out = StringBuilder()

// One step line per comparison of two items.
fun compare() {
    out.append("@step {\"action\": \"compare\"}\n")
}

fun main() {
    // Insertion sort: right answers, but about n²/4 comparisons on random input.
    val tokens = generateSequence(::readLine).joinToString(" ").split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = tokens[0].toInt()
    val items = LongArray(n) { tokens[1 + it].toLong() }
    for (i in 1 until n) {
        var j = i
        while (j > 0) {
            compare()
            if (items[j - 1] <= items[j]) break
            val held = items[j - 1]
            items[j - 1] = items[j]
            items[j] = held
            j--
        }
    }
    out.append(items.joinToString(" ")).append('\n')
    print(out)
}
