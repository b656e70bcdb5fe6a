fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = data[0]
    val m = data[1]
    val successors = List(n + 1) { ArrayList<Int>() }
    val inDegree = IntArray(n + 1)
    for (k in 0 until m) {
        val u = data[2 + 2 * k]
        val v = data[3 + 2 * k]
        successors[u].add(v)
        inDegree[v]++
    }
    val order = ArrayList<Int>()
    for (node in 1..n) if (inDegree[node] == 0) order.add(node)
    // order doubles as the queue: the nodes after index head are ready but not yet expanded.
    var head = 0
    while (head < order.size) {
        for (successor in successors[order[head]]) {
            inDegree[successor]--
            if (inDegree[successor] == 0) order.add(successor)
        }
        head++
    }
    // Tasks on or behind a cycle never reach in-degree 0.
    println(if (order.size == n) order.joinToString(" ") else "IMPOSSIBLE")
}
