// Prints one step line: "@step " and a JSON object with the step's fields. A distance of -1 (not
// reached yet) prints as null; a settle step passes no edge, so it has no edge or relaxed field.
fun step(action: String, current: Int, dist: IntArray, edge: List<Int>? = null, relaxed: Boolean = false) {
    val distances = dist.joinToString(", ", "[", "]") { if (it < 0) "null" else it.toString() }
    val relaxation = if (edge == null) "" else ", \"edge\": ${edge.joinToString(", ", "[", "]")}, \"relaxed\": $relaxed"
    println("@step {\"action\": \"$action\", \"current\": $current, \"dist\": $distances$relaxation}")
}

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val (n, m, source) = numbers
    val outgoing = List(n) { mutableListOf<Pair<Int, Int>>() } // (to, weight)
    for (k in 0 until m) {
        outgoing[numbers[3 + 3 * k]].add(Pair(numbers[4 + 3 * k], numbers[5 + 3 * k]))
    }
    outgoing.forEach { edges -> edges.sortWith(compareBy({ it.first }, { it.second })) }

    val dist = IntArray(n) { -1 }
    val settled = BooleanArray(n)
    dist[source] = 0
    while (true) {
        var node = -1
        for (v in 0 until n) {
            if (!settled[v] && dist[v] >= 0 && (node < 0 || dist[v] < dist[node])) node = v
        }
        if (node < 0) break
        settled[node] = true
        step("settle", node, dist)
        for ((to, weight) in outgoing[node]) {
            // Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too.
            val through = dist[node] + weight
            val relaxed = dist[to] < 0 || through < dist[to]
            if (relaxed) dist[to] = through
            step("relax", node, dist, listOf(node, to, weight), relaxed)
        }
    }
    println(dist.joinToString(" "))
}
