import dsa.Recorder

const val UNREACHABLE = 1_000_000_000_000_000_000L

class Solution {
    // A step's fields: the table with null for a pair with no path known yet, the cell, the cells read.
    private fun fields(dist: Array<LongArray>, cell: List<Int>?, reads: List<List<Int>>): Map<String, Any?> =
        linkedMapOf(
            "table" to dist.map { row -> row.map { d -> if (d == UNREACHABLE) null else d } },
            "cell" to cell,
            "reads" to reads,
        )

    fun allPairs(n: Long, edges: Array<LongArray>): Array<LongArray> {
        val rec = Recorder()
        val size = n.toInt()
        val dist = Array(size) { i -> LongArray(size) { j -> if (i == j) 0 else UNREACHABLE } }
        for ((u, v, w) in edges) dist[u.toInt()][v.toInt()] = minOf(dist[u.toInt()][v.toInt()], w)
        rec.step("init", fields(dist, null, listOf()), "0 on the diagonal, each edge's weight")
        // Wrong on purpose: the round k is the innermost loop, so dist[i][k] and dist[k][j] are used before they are final.
        for (i in 0 until size) {
            for (j in 0 until size) {
                for (k in 0 until size) {
                    if (dist[i][k] == UNREACHABLE || dist[k][j] == UNREACHABLE) continue
                    val through = dist[i][k] + dist[k][j]
                    if (through < dist[i][j]) {
                        dist[i][j] = through
                        rec.step("relax", fields(dist, listOf(i, j), listOf(listOf(i, k), listOf(k, j))), "$i to $j through $k: $through")
                    }
                }
            }
        }
        rec.step("done", fields(dist, null, listOf()), "Every pair's shortest distance")
        return dist
    }
}
