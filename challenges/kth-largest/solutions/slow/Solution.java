import java.util.*;

class Solution {
    private static long comparisons;

    private static boolean less(long a, long b) {
        comparisons++;
        return a < b;
    }

    // Slow on purpose: k rounds of taking out the largest value left, O(n x k).
    public static long kthLargest(long[] nums, long k) {
        comparisons = 0;
        long[] left = nums.clone();
        int size = left.length;
        long largest = left[0];
        for (long round = 0; round < k; round++) {
            int at = 0;
            for (int i = 1; i < size; i++) {
                if (less(left[at], left[i])) at = i;
            }
            largest = left[at];
            left[at] = left[--size];
        }
        System.out.println("@count " + comparisons);
        return largest;
    }
}
