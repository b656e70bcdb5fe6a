fun solve(values: LongArray, target: Long): String {
    val firstPosition = HashMap<Long, Int>()
    for (j in values.indices) {
        val partner = firstPosition[target - values[j]]
        if (partner != null) return "${partner + 1} ${j + 1}"
        // Keep the first position of each value: the smallest i wins.
        firstPosition.putIfAbsent(values[j], j)
    }
    return "0 0"
}

fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = data[0].toInt()
    val target = data[1].toLong()
    val values = LongArray(n) { data[2 + it].toLong() }
    println(solve(values, target))
}
