class Solution {
    fun editDistance(a: String, b: String): Long {
        // Wrong on purpose: the first row and column start at 0, as if deleting or inserting a prefix were free.
        var prev = LongArray(b.length + 1)
        var cur = LongArray(b.length + 1)
        for (i in 1..a.length) {
            for (j in 1..b.length) {
                val replace = prev[j - 1] + if (a[i - 1] == b[j - 1]) 0 else 1
                cur[j] = minOf(prev[j] + 1, cur[j - 1] + 1, replace)
            }
            prev = cur.also { cur = prev }
        }
        return prev[b.length]
    }
}
