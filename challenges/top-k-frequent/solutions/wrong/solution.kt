class Solution {
    fun topKFrequent(items: LongArray, k: Long): LongArray {
        val counts = items.toList().groupingBy { it }.eachCount()
        // Wrong: a stable sort by count alone keeps tied values in the order they first appear.
        return counts.entries.sortedByDescending { it.value }.take(k.toInt()).map { it.key }.toLongArray()
    }
}
