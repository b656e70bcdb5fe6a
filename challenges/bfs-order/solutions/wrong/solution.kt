import dsa.Recorder

class Solution {
    fun bfsOrder(graph: List<List<Int>>, source: Long): LongArray {
        val neighbours = graph.map { it.sorted() }
        val rec = Recorder()
        // Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
        val seen = BooleanArray(graph.size)
        val queue = ArrayDeque<Int>()
        queue.addLast(source.toInt())
        rec.discover(source)
        val order = ArrayList<Long>()
        var checks = 0L
        while (queue.isNotEmpty()) {
            val node = queue.removeFirst()
            if (seen[node]) continue
            seen[node] = true
            rec.visit(node.toLong())
            order.add(node.toLong())
            for (neighbour in neighbours[node]) {
                checks++
                if (!seen[neighbour]) {
                    queue.addLast(neighbour)
                    rec.discover(neighbour.toLong())
                }
            }
        }
        println("@count $checks")
        return order.toLongArray()
    }
}
