class Solution {
    fun countComponents(n: Long, edges: Array<LongArray>): Long {
        val parent = IntArray(n.toInt()) { it }
        fun find(start: Int): Int {
            var x = start
            while (parent[x] != x) x = parent[x]
            return x
        }
        // Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it.
        for (edge in edges) parent[edge[1].toInt()] = find(edge[0].toInt())
        return parent.indices.count { parent[it] == it }.toLong()
    }
}
