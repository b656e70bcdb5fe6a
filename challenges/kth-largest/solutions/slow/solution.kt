class Solution {
    // Slow on purpose: k rounds of taking out the largest value left, O(n x k).
    fun kthLargest(nums: LongArray, k: Long): Long {
        var comparisons = 0L
        fun less(a: Long, b: Long): Boolean {
            comparisons++
            return a < b
        }
        val left = nums.copyOf()
        var size = left.size
        var largest = left[0]
        for (round in 0 until k) {
            var at = 0
            for (i in 1 until size) {
                if (less(left[at], left[i])) at = i
            }
            largest = left[at]
            size--
            left[at] = left[size]
        }
        println("@count $comparisons")
        return largest
    }
}
