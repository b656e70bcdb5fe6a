import java.util.PriorityQueue

class Solution {
    fun shortestDistances(n: Long, edges: Array<LongArray>, source: Long): LongArray {
        val adjacency = List(n.toInt()) { ArrayList<LongArray>() }
        for (edge in edges) adjacency[edge[0].toInt()].add(longArrayOf(edge[1], edge[2]))
        val dist = LongArray(n.toInt()) { -1L }
        val heap = PriorityQueue<LongArray>(compareBy { it[0] })
        dist[source.toInt()] = 0
        heap.add(longArrayOf(0, source))
        while (heap.isNotEmpty()) {
            val (d, node) = heap.poll()
            for ((v, w) in adjacency[node.toInt()]) {
                if (dist[v.toInt()] == -1L) {
                    // Wrong on purpose: a node's distance is fixed when it is first seen, not when it is popped.
                    dist[v.toInt()] = d + w
                    heap.add(longArrayOf(d + w, v))
                }
            }
        }
        return dist
    }
}
