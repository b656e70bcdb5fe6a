import dsa.Recorder

class Solution {
    fun bfsOrder(graph: List<List<Int>>, source: Long): LongArray {
        val neighbours = graph.map { it.sorted() }
        val rec = Recorder()
        val seen = BooleanArray(graph.size)
        seen[source.toInt()] = true
        val queue = ArrayList<Int>()
        queue.add(source.toInt())
        rec.discover(source)
        // Every neighbour looked at is counted, for the growth grade (@count).
        var checks = 0L
        var head = 0
        while (head < queue.size) {
            val node = queue[head++]
            rec.visit(node.toLong())
            for (neighbour in neighbours[node]) {
                checks++
                if (!seen[neighbour]) {
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
