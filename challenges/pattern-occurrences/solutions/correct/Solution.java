import java.util.*;

class Solution {
    private static long comparisons; // character comparisons, for the growth grade

    private static boolean same(char a, char b) {
        comparisons++;
        return a == b;
    }

    public static long[] findOccurrences(String text, String pattern) {
        comparisons = 0;
        // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
        int[] fail = new int[pattern.length()];
        int k = 0;
        for (int i = 1; i < pattern.length(); i++) {
            while (k > 0 && !same(pattern.charAt(i), pattern.charAt(k))) k = fail[k - 1];
            if (same(pattern.charAt(i), pattern.charAt(k))) k++;
            fail[i] = k;
        }
        long[] found = new long[Math.max(0, text.length() - pattern.length() + 1)];
        int count = 0;
        k = 0;
        for (int i = 0; i < text.length(); i++) {
            while (k > 0 && !same(text.charAt(i), pattern.charAt(k))) k = fail[k - 1];
            if (same(text.charAt(i), pattern.charAt(k))) k++;
            if (k == pattern.length()) {
                found[count++] = i - k + 1;
                k = fail[k - 1];
            }
        }
        System.out.println("@count " + comparisons);
        return Arrays.copyOf(found, count);
    }
}
