import dsa.Recorder

class Solution {
    // Off by one: grows only when the array holds one item more than its capacity (a spare slot hides the overflow).
    fun pushAll(values: LongArray): LongArray {
        val rec = Recorder()
        var capacity = 1
        var size = 0
        var buffer = LongArray(capacity + 1)
        val capacities = LongArray(values.size)
        for (k in values.indices) {
            if (size > capacity) {
                capacity = capacity * 2
                val bigger = LongArray(capacity + 1)
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
