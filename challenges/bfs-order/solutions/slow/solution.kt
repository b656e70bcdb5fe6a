import dsa.Recorder

class Solution {
    fun bfsOrder(graph: List<List<Int>>, source: Long): LongArray {
        val neighbourSets = graph.map { it.toHashSet() }
        val rec = Recorder()
        val seen = BooleanArray(graph.size)
        seen[source.toInt()] = true
        val queue = ArrayList<Int>()
        queue.add(source.toInt())
        rec.discover(source)
        var checks = 0L
        var head = 0
        while (head < queue.size) {
            val node = queue[head++]
            rec.visit(node.toLong())
            // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
            for (neighbour in graph.indices) {
                checks++
                if (neighbour in neighbourSets[node] && !seen[neighbour]) {
                    seen[neighbour] = true
                    queue.add(neighbour)
                    rec.discover(neighbour.toLong())
                }
            }
        }
        println("@count $checks")
        return LongArray(queue.size) { queue[it].toLong() }
    }
}
