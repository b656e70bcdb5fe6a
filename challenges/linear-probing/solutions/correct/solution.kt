import dsa.Recorder

class Solution {
    private val empty = -1L

    fun insertAll(capacity: Long, keys: LongArray): LongArray {
        val rec = Recorder()
        val size = capacity.toInt()
        val table = LongArray(size) { empty }
        val ids = LongArray(size) // the id of the entry in each bucket: its insertion order
        var nextId = 0L
        for (key in keys) {
            val home = (key % size).toInt()
            val probe = ArrayList<Int>()
            var bucket = home
            while (true) {
                probe.add(bucket)
                if (table[bucket] == key) {
                    record(rec, "find", table, ids, key, home, probe, "$key is already in bucket $bucket")
                    break
                }
                if (table[bucket] == empty) {
                    table[bucket] = key
                    ids[bucket] = nextId++
                    record(rec, "insert", table, ids, key, home, probe, "Insert $key in bucket $bucket (its hash is $home)")
                    break
                }
                bucket = (bucket + 1) % size
            }
        }
        return table
    }

    private fun record(rec: Recorder, action: String, table: LongArray, ids: LongArray, key: Long, home: Int,
                       probe: List<Int>, caption: String) {
        val buckets = table.indices.map { b ->
            if (table[b] == empty) listOf() else listOf(linkedMapOf("id" to ids[b], "key" to table[b], "value" to null))
        }
        rec.step(action, linkedMapOf("buckets" to buckets, "key" to key, "hash" to home, "probe" to probe), caption)
    }
}
