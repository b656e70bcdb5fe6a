class Solution {
    // Slow on purpose: no union by size and no path compression, so the trees can grow as tall as a
    // chain and each find walks all of it.
    fun countComponents(n: Long, edges: Array<LongArray>): Long {
        val parent = IntArray(n.toInt()) { it }
        var hops = 0L
        fun find(start: Int): Int {
            var x = start
            while (parent[x] != x) {
                x = parent[x]
                hops++
            }
            return x
        }
        var components = n
        for (edge in edges) {
            val a = find(edge[0].toInt())
            val b = find(edge[1].toInt())
            if (a != b) {
                parent[a] = b
                components--
            }
        }
        println("@count $hops")
        return components
    }
}
