import dsa.Recorder

class Solution {
    fun heapSort(items: LongArray): LongArray {
        val rec = Recorder()
        val array = items.copyOf()
        val ids = LongArray(array.size) { it.toLong() } // item k of the input has id k; a swap swaps ids too
        fun record(action: String, size: Int, active: List<Int>, caption: String) {
            rec.step(action, linkedMapOf("heap" to array.copyOf(size), "ids" to ids.copyOf(size), "active" to active), caption)
        }
        fun swap(i: Int, j: Int) {
            array[i] = array[j].also { array[j] = array[i] }
            ids[i] = ids[j].also { ids[j] = ids[i] }
        }
        fun siftDown(start: Int, size: Int) {
            var parent = start
            while (true) {
                val left = 2 * parent + 1
                val right = left + 1
                var larger = left // the larger child; the left one when they are equal
                if (right < size && array[right] > array[left]) larger = right
                if (larger >= size || array[larger] <= array[parent]) return
                swap(parent, larger)
                record("swap", size, listOf(parent, larger), "Sift down: swap ${array[larger]} with its larger child ${array[parent]}")
                parent = larger
            }
        }
        val n = array.size
        for (parent in n / 2 - 1 downTo 0) siftDown(parent, n)
        for (end in n - 1 downTo 1) {
            swap(0, end)
            record("pop", end, listOf(0), "Move the largest, ${array[end]}, to index $end; ${array[0]} takes the root")
            siftDown(0, end)
        }
        record("done", 0, listOf(), "Done: the heap is empty and the items are sorted")
        return array
    }
}
