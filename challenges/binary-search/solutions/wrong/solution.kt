import dsa.Recorder

class Solution {
    fun binarySearch(items: LongArray, target: Long): Long {
        val rec = Recorder()
        var low = 0
        var high = items.size - 1
        // Wrong on purpose: stops when low == high, before probing the last candidate.
        while (low < high) {
            val mid = low + (high - low) / 2
            rec.probe(low.toLong(), mid.toLong(), high.toLong(), items[mid] == target)
            if (items[mid] == target) return mid.toLong()
            if (items[mid] < target) low = mid + 1 else high = mid - 1
        }
        rec.probe(low.toLong(), null, high.toLong(), false)
        return -1
    }
}
