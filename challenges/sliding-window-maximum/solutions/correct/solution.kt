import dsa.Recorder

class Solution {
    private val stepped = 50 // indices whose operations record steps

    fun windowMax(items: LongArray, k: Long): LongArray {
        val rec = Recorder()
        val window = ArrayDeque<Int>() // indices, their items decreasing from the front
        val answers = ArrayList<Long>()
        for (i in items.indices) {
            if (window.isNotEmpty() && window.first().toLong() == i - k) {
                val left = window.removeFirst()
                if (i < stepped) record(rec, "pop_front", window, left, "Index $left has left the window: drop it from the front")
            }
            while (window.isNotEmpty() && items[window.last()] <= items[i]) {
                val smaller = window.removeLast()
                if (i < stepped) {
                    record(rec, "pop_back", window, smaller,
                        "${items[smaller]} at index $smaller is not larger than ${items[i]}: drop it")
                }
            }
            window.addLast(i)
            if (i < stepped) record(rec, "push_back", window, i, "Push index $i (${items[i]}) at the back")
            if (i >= k - 1) answers.add(items[window.first()])
        }
        return answers.toLongArray()
    }

    private fun record(rec: Recorder, action: String, window: ArrayDeque<Int>, index: Int, caption: String) {
        val deque = window.toList()
        rec.step(action, linkedMapOf("deque" to deque, "ids" to deque, "moved" to linkedMapOf("id" to index, "value" to index)),
            caption)
    }
}
