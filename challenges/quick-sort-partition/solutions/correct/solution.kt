import dsa.Recorder

class Solution {
    private val rec = Recorder()

    fun quickSort(items: LongArray): LongArray {
        val array = items.copyOf()
        fun step(action: String, vararg active: Int) =
            rec.step(action, mapOf("active" to active.toList(), "array" to array))

        fun sort(lo: Int, hi: Int) {
            if (lo >= hi) return
            val pivot = array[hi]
            step("pivot", hi)
            var i = lo
            for (j in lo until hi) {
                step("compare", j, hi)
                if (array[j] <= pivot) {
                    if (i != j) {
                        array[i] = array[j].also { array[j] = array[i] }
                        step("swap", i, j)
                    }
                    i++
                }
            }
            array[i] = array[hi].also { array[hi] = array[i] }
            step("place", i)
            sort(lo, i - 1)
            sort(i + 1, hi)
        }

        sort(0, array.size - 1)
        step("done")
        return array
    }
}
