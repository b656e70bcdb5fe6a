fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toLong() }
    val n = data[0].toInt()
    val intervals = List(n) { longArrayOf(data[1 + 2 * it], data[2 + 2 * it]) }
        .sortedWith(compareBy<LongArray>({ it[0] }, { it[1] }))
    val merged = mutableListOf<LongArray>()
    for (interval in intervals) {
        val current = merged.lastOrNull()
        if (current != null && interval[0] <= current[1]) {
            // Mistake: takes the new right end even when the current interval already reaches further.
            current[1] = interval[1]
        } else {
            merged.add(interval.copyOf())
        }
    }
    print(merged.joinToString("") { "${it[0]} ${it[1]}\n" })
}
