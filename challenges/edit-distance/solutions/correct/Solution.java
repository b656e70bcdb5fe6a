import java.util.*;

class Solution {
    public static long editDistance(String a, String b) {
        long[] prev = new long[b.length() + 1], cur = new long[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j; // row 0: insert b's first j characters
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i; // column 0: delete a's first i characters
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
