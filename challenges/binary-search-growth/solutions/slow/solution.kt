import dsa.Recorder

class Solution {
    // A scan from the start: right answers, about n probes.
    fun binarySearch(items: LongArray, target: Long): Long {
        val rec = Recorder()
        for (index in items.indices) {
            rec.probe(index.toLong(), index.toLong(), (items.size - 1).toLong(), items[index] == target)
            if (items[index] == target) return index.toLong()
            if (items[index] > target) break
        }
        return -1
    }
}
