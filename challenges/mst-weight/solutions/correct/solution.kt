class Solution {
    fun mstWeight(n: Long, edges: Array<LongArray>): Long {
        val parent = IntArray(n.toInt()) { it }
        fun find(start: Int): Int {
            var x = start
            while (parent[x] != x) {
                parent[x] = parent[parent[x]] // path halving
                x = parent[x]
            }
            return x
        }
        var total = 0L
        var joined = 0L
        for (edge in edges.sortedBy { it[2] }) { // Kruskal: cheapest edges first
            val a = find(edge[0].toInt())
            val b = find(edge[1].toInt())
            if (a != b) { // joins two components, so it makes no cycle
                parent[a] = b
                total += edge[2]
                joined++
            }
        }
        return if (joined == n - 1) total else -1L
    }
}
