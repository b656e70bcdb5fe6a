fun solve(values: LongArray, target: Long): String {
    val firstPosition = HashMap<Long, Int>()
    for (j in values.indices) {
        // Mistake: the value is stored before the look-up, so it can pair with itself.
        firstPosition.putIfAbsent(values[j], j)
        val partner = firstPosition[target - values[j]]
        if (partner != null) return "${partner + 1} ${j + 1}"
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
