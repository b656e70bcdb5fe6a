class Solution {
    fun isBalanced(s: String): Boolean {
        val opener = mapOf(')' to '(', ']' to '[', '}' to '{')
        val stack = ArrayDeque<Char>()
        for (bracket in s) {
            if (bracket in "([{") {
                stack.addLast(bracket)
            } else if (stack.isEmpty() || stack.removeLast() != opener[bracket]) {
                return false
            }
        }
        return stack.isEmpty()
    }
}
