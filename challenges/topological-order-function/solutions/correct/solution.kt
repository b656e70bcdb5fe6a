class Solution {
    fun topologicalOrder(n: Long, edges: Array<LongArray>): LongArray {
        val size = n.toInt()
        val successors = Array(size + 1) { ArrayList<Int>() }
        val inDegree = IntArray(size + 1)
        for (edge in edges) {
            successors[edge[0].toInt()].add(edge[1].toInt())
            inDegree[edge[1].toInt()]++
        }
        val order = LongArray(size)
        var length = 0
        for (task in 1..size) if (inDegree[task] == 0) order[length++] = task.toLong()
        var head = 0
        while (head < length) {
            for (after in successors[order[head].toInt()]) {
                inDegree[after]--
                if (inDegree[after] == 0) order[length++] = after.toLong()
            }
            head++
        }
        // Tasks left out lie on a cycle: no order exists.
        return if (length == size) order else LongArray(0)
    }
}
