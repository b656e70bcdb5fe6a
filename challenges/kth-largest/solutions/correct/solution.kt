import java.util.PriorityQueue

class Solution {
    fun kthLargest(nums: LongArray, k: Long): Long {
        val heap = PriorityQueue<Long>() // a min-heap of the k largest values seen so far
        for (value in nums) {
            heap.add(value)
            if (heap.size > k) heap.poll()
        }
        return heap.peek()
    }
}
