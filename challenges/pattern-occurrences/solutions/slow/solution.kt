class Solution {
    // Slow on purpose: the pattern is checked at every start, O(len(text) x len(pattern)).
    fun findOccurrences(text: String, pattern: String): LongArray {
        var comparisons = 0L
        fun same(a: Char, b: Char): Boolean {
            comparisons++
            return a == b
        }
        val found = ArrayList<Long>()
        var start = 0
        while (start + pattern.length <= text.length) {
            var j = 0
            while (j < pattern.length && same(text[start + j], pattern[j])) j++
            if (j == pattern.length) found.add(start.toLong())
            start++
        }
        println("@count $comparisons")
        return found.toLongArray()
    }
}
