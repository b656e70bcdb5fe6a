import java.util.*;

class Solution {
    public static long kthLargest(long[] nums, long k) {
        PriorityQueue<Long> heap = new PriorityQueue<>();  // a min-heap of the k largest so far
        for (long value : nums) {
            heap.add(value);
            if (heap.size() > k) heap.poll();
        }
        return heap.peek();
    }
}
