val out = StringBuilder()

// One step line per item looked at.
fun probe(index: Int) {
    out.append("@step {\"action\": \"probe\", \"index\": ").append(index).append("}\n")
}

fun main() {
    val tokens = generateSequence(::readLine).joinToString(" ").split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = tokens[0].toInt()
    val items = LongArray(n) { tokens[1 + it].toLong() }
    val target = tokens[1 + n].toLong()
    var answer = -1
    var low = 0
    var high = n - 1
    while (low <= high) {
        val middle = low + (high - low) / 2
        probe(middle)
        if (items[middle] == target) {
            answer = middle
            break
        }
        if (items[middle] < target) low = middle + 1 else high = middle - 1
    }
    out.append(answer).append('\n')
    print(out)
}
