import java.util.PriorityQueue

class Solution {
    fun courseOrder(n: Long, prerequisites: Array<LongArray>): LongArray {
        val count = n.toInt()
        val unlocks = List(count) { ArrayList<Int>() }
        val waiting = IntArray(count) // unmet prerequisites of each course
        for (pair in prerequisites) {
            unlocks[pair[1].toInt()].add(pair[0].toInt())
            waiting[pair[0].toInt()]++
        }
        val ready = PriorityQueue<Int>() // the smallest ready course first
        for (c in 0 until count) if (waiting[c] == 0) ready.add(c)
        val order = ArrayList<Long>()
        while (ready.isNotEmpty()) {
            val c = ready.poll()
            order.add(c.toLong())
            for (next in unlocks[c]) if (--waiting[next] == 0) ready.add(next)
        }
        return if (order.size == count) order.toLongArray() else LongArray(0) // fewer: a cycle
    }
}
