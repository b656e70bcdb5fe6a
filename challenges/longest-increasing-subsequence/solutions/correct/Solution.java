import java.util.*;

class Solution {
    public static long lisLength(long[] items) {
        long[] tails = new long[items.length]; // tails[n]: the smallest last item of an increasing run of length n + 1
        int length = 0;
        for (long item : items) {
            int low = 0, high = length; // the first tail >= item
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (tails[mid] < item) low = mid + 1; else high = mid;
            }
            tails[low] = item;
            if (low == length) length++;
        }
        return length;
    }
}
