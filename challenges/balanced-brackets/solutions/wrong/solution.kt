class Solution {
    // Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
    fun isBalanced(s: String): Boolean {
        val opener = mapOf(')' to '(', ']' to '[', '}' to '{')
        val openCount = mutableMapOf('(' to 0, '[' to 0, '{' to 0)
        for (bracket in s) {
            if (bracket in openCount) {
                openCount[bracket] = openCount.getValue(bracket) + 1
            } else {
                val kind = opener.getValue(bracket)
                openCount[kind] = openCount.getValue(kind) - 1
                if (openCount.getValue(kind) < 0) return false
            }
        }
        return openCount.values.all { it == 0 }
    }
}
