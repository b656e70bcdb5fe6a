fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = data[0].toInt()
    val values = LongArray(n) { data[1 + it].toLong() }
    val children = List(n) { ArrayList<Int>() }
    for (child in 0 until n) {
        val parent = data[1 + n + child].toInt()
        if (parent >= 0) children[parent].add(child)
    }
    val out = StringBuilder()
    var level = if (n > 0) listOf(0) else emptyList()
    while (level.isNotEmpty()) {
        val sum = level.sumOf { values[it] }
        // Mistake: integer division drops the fraction of the average.
        out.append(sum / level.size).append('\n')
        level = level.flatMap { children[it] }
    }
    print(out)
}
