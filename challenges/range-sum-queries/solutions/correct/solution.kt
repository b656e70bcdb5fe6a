class Solution {
    fun rangeSums(nums: LongArray, queries: Array<LongArray>): LongArray {
        val n = nums.size
        val values = nums.copyOf() // the current values, to know each update's change
        val tree = LongArray(n + 1) // Fenwick tree: tree[i] sums values[i - (i and -i) .. i - 1]
        fun add(index: Int, delta: Long) {
            var i = index + 1
            while (i <= n) {
                tree[i] += delta
                i += i and -i
            }
        }
        fun prefix(end: Int): Long { // values[0] + ... + values[end - 1]
            var total = 0L
            var i = end
            while (i > 0) {
                total += tree[i]
                i -= i and -i
            }
            return total
        }
        for (i in 0 until n) add(i, values[i])
        val answers = ArrayList<Long>()
        for (q in queries) {
            val a = q[1].toInt()
            if (q[0] == 0L) {
                add(a, q[2] - values[a])
                values[a] = q[2]
            } else {
                answers.add(prefix(q[2].toInt() + 1) - prefix(a))
            }
        }
        return answers.toLongArray()
    }
}
