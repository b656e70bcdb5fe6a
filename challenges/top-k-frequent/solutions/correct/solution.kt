class Solution {
    fun topKFrequent(items: LongArray, k: Long): LongArray {
        val counts = HashMap<Long, Int>()
        for (item in items) counts[item] = (counts[item] ?: 0) + 1
        return counts.entries
            .sortedWith(compareByDescending<Map.Entry<Long, Int>> { it.value }.thenBy { it.key })
            .take(k.toInt())
            .map { it.key }
            .toLongArray()
    }
}
