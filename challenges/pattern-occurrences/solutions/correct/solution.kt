class Solution {
    fun findOccurrences(text: String, pattern: String): LongArray {
        // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
        val fail = IntArray(pattern.length)
        var k = 0
        for (i in 1 until pattern.length) {
            while (k > 0 && pattern[i] != pattern[k]) k = fail[k - 1]
            if (pattern[i] == pattern[k]) k++
            fail[i] = k
        }
        val found = ArrayList<Long>()
        k = 0
        for (i in text.indices) {
            while (k > 0 && text[i] != pattern[k]) k = fail[k - 1]
            if (text[i] == pattern[k]) k++
            if (k == pattern.length) {
                found.add((i - k + 1).toLong())
                k = fail[k - 1]
            }
        }
        return found.toLongArray()
    }
}
