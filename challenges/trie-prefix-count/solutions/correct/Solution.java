import java.util.*;

class Solution {
    public static long[] countPrefixes(String[] words, String[] prefixes) {
        // Node 0 is the root, so 0 also means "no child"; child[node * 26 + letter] is a node.
        int[] child = new int[26 * 1024];
        long[] passing = new long[1024];  // passing[node]: how many words' paths pass through the node
        int size = 1;
        for (String word : words) {
            int node = 0;
            passing[0]++;
            for (int i = 0; i < word.length(); i++) {
                int slot = node * 26 + (word.charAt(i) - 'a');
                if (child[slot] == 0) {
                    if (size == passing.length) {
                        child = Arrays.copyOf(child, child.length * 2);
                        passing = Arrays.copyOf(passing, passing.length * 2);
                    }
                    child[slot] = size++;
                }
                node = child[slot];
                passing[node]++;
            }
        }
        long[] answers = new long[prefixes.length];
        for (int p = 0; p < prefixes.length; p++) {
            int node = 0;
            long count = passing[0];
            for (int i = 0; i < prefixes[p].length(); i++) {
                node = child[node * 26 + (prefixes[p].charAt(i) - 'a')];
                if (node == 0) {
                    count = 0;
                    break;
                }
                count = passing[node];
            }
            answers[p] = count;
        }
        return answers;
    }
}
