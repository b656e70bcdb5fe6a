class Solution {
    fun distinctPermutations(items: LongArray): Array<LongArray> {
        val values = items.sortedArray()
        val used = BooleanArray(values.size)
        val prefix = ArrayList<Long>()
        val permutations = ArrayList<LongArray>()
        fun extend() {
            if (prefix.size == values.size) {
                permutations.add(prefix.toLongArray())
                return
            }
            // Wrong on purpose: every position is tried, so equal values give the same permutation several times.
            for (k in values.indices) {
                if (used[k]) continue
                used[k] = true
                prefix.add(values[k])
                extend()
                prefix.removeAt(prefix.size - 1)
                used[k] = false
            }
        }
        extend()
        return permutations.toTypedArray()
    }
}
