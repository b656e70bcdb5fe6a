import java.util.*;

class Solution {
    public static long kthLargest(long[] nums, long k) {
        // Wrong on purpose: repeated values are counted once (a set), so it finds the k-th largest distinct value.
        TreeSet<Long> distinct = new TreeSet<>();
        for (long value : nums) distinct.add(value);
        Iterator<Long> it = distinct.descendingIterator();
        long answer = 0;
        for (long i = 0; i < k; i++) answer = it.next();
        return answer;
    }
}
