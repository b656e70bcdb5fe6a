class Solution {
    fun findOccurrences(text: String, pattern: String): LongArray {
        var comparisons = 0L // character comparisons, for the growth grade
        fun same(a: Char, b: Char): Boolean {
            comparisons++
            return a == b
        }
        // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
        val fail = IntArray(pattern.length)
        var k = 0
        for (i in 1 until pattern.length) {
            while (k > 0 && !same(pattern[i], pattern[k])) k = fail[k - 1]
            if (same(pattern[i], pattern[k])) k++
            fail[i] = k
        }
        val found = ArrayList<Long>()
        k = 0
        for (i in text.indices) {
            while (k > 0 && !same(text[i], pattern[k])) k = fail[k - 1]
            if (same(text[i], pattern[k])) k++
            if (k == pattern.length) {
                found.add((i - k + 1).toLong())
                k = fail[k - 1]
            }
        }
        println("@count $comparisons")
        return found.toLongArray()
    }
}
