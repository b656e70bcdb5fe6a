val out = StringBuilder()

// One step line per item looked at.
fun probe(index: Int) {
    out.append("@step {\"action\": \"probe\", \"index\": ").append(index).append("}\n")
}

fun main() {
    // A scan from the start: right answers, about n probes.
    val tokens = generateSequence(::readLine).joinToString(" ").split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = tokens[0].toInt()
    val items = LongArray(n) { tokens[1 + it].toLong() }
    val target = tokens[1 + n].toLong()
    var answer = -1
    for (index in 0 until n) {
        probe(index)
        if (items[index] == target) {
            answer = index
            break
        }
        if (items[index] > target) break
    }
    out.append(answer).append('\n')
    print(out)
}
