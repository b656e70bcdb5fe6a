import dsa.Recorder

class Solution {
    fun mergeSort(items: LongArray): LongArray {
        val rec = Recorder()
        return sortPart(items, rec)
    }

    private fun sortPart(items: LongArray, rec: Recorder): LongArray {
        if (items.size < 2) return items
        val middle = items.size / 2
        val left = sortPart(items.copyOfRange(0, middle), rec)
        val right = sortPart(items.copyOfRange(middle, items.size), rec)
        val merged = LongArray(left.size + right.size)
        var i = 0
        var j = 0
        var k = 0
        while (i < left.size && j < right.size) {
            rec.step("compare", mapOf("values" to listOf(left[i], right[j])))
            if (left[i] < right[j]) {
                merged[k++] = left[i++]
            } else if (left[i] > right[j]) {
                merged[k++] = right[j++]
            } else {
                // Wrong on purpose: two equal items are written once, so a duplicate is lost.
                merged[k++] = left[i++]
                j++
            }
        }
        while (i < left.size) merged[k++] = left[i++]
        while (j < right.size) merged[k++] = right[j++]
        return merged.copyOf(k)
    }
}
