import dsa.Recorder

class Solution {
    fun dijkstra(n: Long, edges: Array<LongArray>, source: Long): LongArray {
        val rec = Recorder()
        val count = n.toInt()
        // Each node's edges in ascending (node, weight) order: the order the steps follow.
        val sorted = edges.sortedWith(compareBy<LongArray>({ it[0] }, { it[1] }, { it[2] }))
        val dist = arrayOfNulls<Long>(count)  // null: not reached yet
        val settled = BooleanArray(count)
        dist[source.toInt()] = 0L
        while (true) {
            var node = -1
            for (v in 0 until count) {
                val d = dist[v] ?: continue
                if (!settled[v] && (node < 0 || d < dist[node]!!)) node = v
            }
            if (node < 0) break
            settled[node] = true
            rec.step("settle", mapOf("current" to node, "dist" to dist.toList()))
            for (edge in sorted) {
                if (edge[0] != node.toLong()) continue
                val to = edge[1].toInt()
                if (settled[to]) continue
                val through = dist[node]!! + edge[2]
                val relaxed = dist[to].let { it == null || through < it }
                if (relaxed) dist[to] = through
                rec.step("relax", mapOf("current" to node, "dist" to dist.toList(),
                    "edge" to listOf(node.toLong(), edge[1], edge[2]), "relaxed" to relaxed))
            }
        }
        return LongArray(count) { dist[it] ?: -1L }
    }
}
