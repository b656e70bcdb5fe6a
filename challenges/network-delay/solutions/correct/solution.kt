import java.util.PriorityQueue

class Solution {
    fun shortestDistances(n: Long, edges: Array<LongArray>, source: Long): LongArray {
        val adjacency = List(n.toInt()) { ArrayList<LongArray>() }
        for (edge in edges) adjacency[edge[0].toInt()].add(longArrayOf(edge[1], edge[2]))
        val dist = LongArray(n.toInt()) { -1L }
        val heap = PriorityQueue<LongArray>(compareBy { it[0] })
        heap.add(longArrayOf(0, source))
        while (heap.isNotEmpty()) {
            val (d, node) = heap.poll()
            val u = node.toInt()
            if (dist[u] != -1L) continue // settled already, by a shorter path
            dist[u] = d
            for ((v, w) in adjacency[u]) if (dist[v.toInt()] == -1L) heap.add(longArrayOf(d + w, v))
        }
        return dist
    }
}
