import java.util.*;

class Solution {
    public static long editDistance(String a, String b) {
        // Wrong on purpose: the first row and column start at 0, as if deleting or inserting a prefix were free.
        long[] prev = new long[b.length() + 1], cur = new long[b.length() + 1];
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                long replace = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(Math.min(prev[j] + 1, cur[j - 1] + 1), replace);
            }
            long[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
