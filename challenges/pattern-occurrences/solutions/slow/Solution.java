import java.util.*;

class Solution {
    private static long comparisons;

    private static boolean same(char a, char b) {
        comparisons++;
        return a == b;
    }

    // Slow on purpose: the pattern is checked at every start, O(len(text) x len(pattern)).
    public static long[] findOccurrences(String text, String pattern) {
        comparisons = 0;
        List<Long> found = new ArrayList<>();
        for (int start = 0; start + pattern.length() <= text.length(); start++) {
            int j = 0;
            while (j < pattern.length() && same(text.charAt(start + j), pattern.charAt(j))) j++;
            if (j == pattern.length()) found.add((long) start);
        }
        System.out.println("@count " + comparisons);
        return found.stream().mapToLong(Long::longValue).toArray();
    }
}
