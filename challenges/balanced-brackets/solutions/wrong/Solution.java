import java.util.*;

class Solution {
    // Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
    public static boolean isBalanced(String s) {
        Map<Character, Integer> openCount = new HashMap<>(Map.of('(', 0, '[', 0, '{', 0));
        for (char bracket : s.toCharArray()) {
            if (openCount.containsKey(bracket)) {
                openCount.merge(bracket, 1, Integer::sum);
                continue;
            }
            char opener = bracket == ')' ? '(' : bracket == ']' ? '[' : '{';
            if (openCount.merge(opener, -1, Integer::sum) < 0) return false;
        }
        return openCount.values().stream().allMatch(count -> count == 0);
    }
}
