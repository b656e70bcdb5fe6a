class Solution {
    fun kthLargest(nums: LongArray, k: Long): Long {
        // Wrong on purpose: repeated values are counted once (a set), so it finds the k-th largest distinct value.
        return nums.toSortedSet().sortedDescending()[(k - 1).toInt()]
    }
}
