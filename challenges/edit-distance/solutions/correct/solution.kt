class Solution {
    fun editDistance(a: String, b: String): Long {
        var prev = LongArray(b.length + 1) { it.toLong() } // row 0: insert b's first j characters
        var cur = LongArray(b.length + 1)
        for (i in 1..a.length) {
            cur[0] = i.toLong() // column 0: delete a's first i characters
            for (j in 1..b.length) {
                val replace = prev[j - 1] + if (a[i - 1] == b[j - 1]) 0 else 1
                cur[j] = minOf(prev[j] + 1, cur[j - 1] + 1, replace)
            }
            prev = cur.also { cur = prev }
        }
        return prev[b.length]
    }
}
