class Solution {
    fun countComponents(n: Long, edges: Array<LongArray>): Long {
        val parent = IntArray(n.toInt()) { it }
        val size = IntArray(n.toInt()) { 1 }
        var hops = 0L // parent pointers followed by find, for the growth grade
        fun find(start: Int): Int {
            var x = start
            while (parent[x] != x) {
                parent[x] = parent[parent[x]] // path halving
                x = parent[x]
                hops++
            }
            return x
        }
        var components = n
        for (edge in edges) {
            var a = find(edge[0].toInt())
            var b = find(edge[1].toInt())
            if (a == b) continue
            if (size[a] < size[b]) a = b.also { b = a }
            parent[b] = a // the smaller tree goes under the larger one's root
            size[a] += size[b]
            components--
        }
        println("@count $hops")
        return components
    }
}
