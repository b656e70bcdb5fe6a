import dsa.Recorder

class Solution {
    fun binarySearch(items: LongArray, target: Long): Long {
        val rec = Recorder()
        // Wrong on purpose: the window leaves out the last item.
        var low = 0
        var high = items.size - 2
        while (low <= high) {
            val mid = (low + high) ushr 1
            rec.probe(low.toLong(), mid.toLong(), high.toLong(), items[mid] == target)
            if (items[mid] == target) return mid.toLong()
            if (items[mid] < target) low = mid + 1 else high = mid - 1
        }
        rec.probe(low.toLong(), null, high.toLong(), false)
        return -1
    }
}
