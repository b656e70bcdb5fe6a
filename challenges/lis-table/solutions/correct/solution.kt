import dsa.Recorder

class Solution {
    fun lisTable(items: LongArray): LongArray {
        val rec = Recorder()
        val best = arrayOfNulls<Long>(items.size) // best[i]: the longest increasing run ending at item i
        for (i in items.indices) {
            val reads = (0 until i).filter { j -> items[j] < items[i] }
            best[i] = 1 + (reads.maxOfOrNull { j -> best[j]!! } ?: 0L)
            rec.step("fill", linkedMapOf("table" to best.toList(), "cell" to listOf(i), "reads" to reads.map { listOf(it) }),
                "best[$i] = ${best[i]}")
        }
        return LongArray(items.size) { best[it]!! }
    }
}
