import java.util.*;

class Solution {
    private static long comparisons; // comparisons of two values, for the growth grade

    public static long kthLargest(long[] nums, long k) {
        comparisons = 0;
        PriorityQueue<Long> heap = new PriorityQueue<>((a, b) -> {
            comparisons++;
            return Long.compare(a, b);
        }); // a min-heap of the k largest so far
        for (long value : nums) {
            heap.add(value);
            if (heap.size() > k) heap.poll();
        }
        System.out.println("@count " + comparisons);
        return heap.peek();
    }
}
