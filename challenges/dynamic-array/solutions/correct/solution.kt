import dsa.Recorder

class Solution {
    fun pushAll(values: LongArray): LongArray {
        val rec = Recorder()
        var capacity = 1
        var size = 0
        var buffer = LongArray(capacity)
        val capacities = LongArray(values.size)
        for (k in values.indices) {
            if (size == capacity) {
                capacity = capacity * 2
                val bigger = LongArray(capacity)
                for (i in 0 until size) {
                    bigger[i] = buffer[i]
                    rec.step("copy", mapOf("index" to i))
                }
                buffer = bigger
            }
            buffer[size++] = values[k]
            capacities[k] = capacity.toLong()
        }
        return capacities
    }
}
