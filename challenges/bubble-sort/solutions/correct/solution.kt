import dsa.Recorder

class Solution {
    fun bubbleSort(items: LongArray): LongArray {
        val rec = Recorder(items)
        val n = items.size
        for (donePasses in 0 until n - 1) {
            var swapped = false
            for (j in 0 until n - 1 - donePasses) {
                rec.compare(j, j + 1)
                if (rec.longAt(j) > rec.longAt(j + 1)) {
                    rec.swap(j, j + 1)
                    swapped = true
                }
            }
            if (!swapped) break
        }
        rec.done()
        return rec.longs()
    }
}
