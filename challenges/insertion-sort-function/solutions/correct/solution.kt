import dsa.Recorder

class Solution {
    fun insertionSort(items: LongArray): LongArray {
        val rec = Recorder(items)
        for (i in 1 until items.size) {
            for (j in i downTo 1) {
                rec.compare(j - 1, j)
                if (rec.longAt(j - 1) <= rec.longAt(j)) break
                rec.swap(j - 1, j)
            }
        }
        rec.done()
        return rec.longs()
    }
}
