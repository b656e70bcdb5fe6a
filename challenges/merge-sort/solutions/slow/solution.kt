import dsa.Recorder

class Solution {
    // Insertion sort: right answers, but about n²/4 comparisons on random input.
    fun mergeSort(items: LongArray): LongArray {
        val rec = Recorder()
        val sorted = items.copyOf()
        for (i in 1 until sorted.size) {
            for (j in i downTo 1) {
                rec.step("compare", mapOf("values" to listOf(sorted[j - 1], sorted[j])))
                if (sorted[j - 1] <= sorted[j]) break
                val held = sorted[j - 1]
                sorted[j - 1] = sorted[j]
                sorted[j] = held
            }
        }
        return sorted
    }
}
