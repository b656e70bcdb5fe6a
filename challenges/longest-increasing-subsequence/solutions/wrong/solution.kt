class Solution {
    fun lisLength(items: LongArray): Long {
        val tails = LongArray(items.size) // tails[n]: the smallest last item of an increasing run of length n + 1
        var length = 0
        for (item in items) {
            var low = 0
            var high = length // the first tail >= item
            while (low < high) {
                val mid = (low + high) ushr 1
                if (tails[mid] <= item) low = mid + 1 else high = mid // wrong: an equal item extends a run
            }
            tails[low] = item
            if (low == length) length++
        }
        return length.toLong()
    }
}
