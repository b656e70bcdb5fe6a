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
            for (k in values.indices) {
                // An equal value whose earlier copy is free would start a permutation already made.
                if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue
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
