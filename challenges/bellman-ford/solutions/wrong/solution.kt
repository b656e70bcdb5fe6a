const val UNREACHABLE = 1_000_000_000_000_000_000L

class Solution {
    fun shortestFrom(n: Long, edges: Array<LongArray>, source: Long): LongArray {
        val dist = LongArray(n.toInt()) { UNREACHABLE }
        dist[source.toInt()] = 0
        for (round in 1 until n) { // a shortest path has at most n - 1 edges
            var changed = false
            for ((u, v, w) in edges) {
                // Wrong on purpose: no check that u is reachable, so an edge out of an unreachable node relaxes its target (10^18 + w).
                if (dist[u.toInt()] + w < dist[v.toInt()]) {
                    dist[v.toInt()] = dist[u.toInt()] + w
                    changed = true
                }
            }
            if (!changed) break
        }
        for ((u, v, w) in edges) {
            // Still relaxing after n - 1 rounds: a negative cycle is reachable.
            if (dist[u.toInt()] + w < dist[v.toInt()]) return LongArray(0)
        }
        return dist
    }
}
