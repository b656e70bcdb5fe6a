import dsa.Recorder

class Solution {
    private val stepped = 50 // operations that record steps

    fun minStack(ops: Array<String>, values: LongArray): LongArray {
        val rec = Recorder()
        val stack = ArrayList<Long>()
        val ids = ArrayList<Long>()
        val mins = ArrayList<Long>() // mins[k]: the minimum of stack[0..k]
        val answers = ArrayList<Long>()
        var nextId = 0L
        for (i in ops.indices) {
            when (ops[i]) {
                "push" -> {
                    val value = values[i]
                    if (mins.isEmpty() || value < mins.last()) mins.add(value) // wrong: a repeated minimum gets no record
                    stack.add(value)
                    ids.add(nextId++)
                    if (i < stepped) record(rec, "push", stack, ids, ids.last(), value, mins)
                }
                "pop" -> {
                    val value = stack.removeAt(stack.size - 1)
                    val id = ids.removeAt(ids.size - 1)
                    if (value == mins.last()) mins.removeAt(mins.size - 1)
                    if (i < stepped) record(rec, "pop", stack, ids, id, value, mins)
                }
                "top" -> answers.add(stack.last())
                else -> answers.add(mins.last())
            }
        }
        return answers.toLongArray()
    }

    private fun record(rec: Recorder, action: String, stack: List<Long>, ids: List<Long>, movedId: Long,
                       movedValue: Long, mins: List<Long>) {
        val minimum = mins.lastOrNull()
        val fields = linkedMapOf<String, Any?>(
            "stack" to stack, "ids" to ids,
            "moved" to linkedMapOf("id" to movedId, "value" to movedValue), "min" to minimum)
        val verb = if (action == "push") "Push" else "Pop"
        rec.step(action, fields,
            "$verb $movedValue: " + (if (minimum == null) "the stack is empty" else "the minimum is $minimum"))
    }
}
