class Solution {
    // Wrong on purpose: the current end is taken from the last interval, not the largest seen.
    fun mergeIntervals(intervals: Array<LongArray>): Array<LongArray> {
        val merged = ArrayList<LongArray>()
        for (interval in intervals.sortedWith(compareBy<LongArray>({ it[0] }, { it[1] }))) {
            val last = merged.lastOrNull()
            if (last != null && interval[0] <= last[1]) {
                last[1] = interval[1]
            } else {
                merged.add(longArrayOf(interval[0], interval[1]))
            }
        }
        return merged.toTypedArray()
    }
}
