import java.util.PriorityQueue

class Solution {
    fun kthLargest(nums: LongArray, k: Long): Long {
        var comparisons = 0L // comparisons of two values, for the growth grade
        // a min-heap of the k largest values seen so far
        val heap = PriorityQueue<Long> { a, b ->
            comparisons++
            a.compareTo(b)
        }
        for (value in nums) {
            heap.add(value)
            if (heap.size > k) heap.poll()
        }
        println("@count $comparisons")
        return heap.peek()
    }
}
