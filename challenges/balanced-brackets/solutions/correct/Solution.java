import java.util.*;

class Solution {
    public static boolean isBalanced(String s) {
        Deque<Character> stack = new ArrayDeque<>();
        for (char bracket : s.toCharArray()) {
            if (bracket == '(' || bracket == '[' || bracket == '{') {
                stack.push(bracket);
                continue;
            }
            char opener = bracket == ')' ? '(' : bracket == ']' ? '[' : '{';
            if (stack.isEmpty() || stack.pop() != opener) return false;
        }
        return stack.isEmpty();
    }
}
