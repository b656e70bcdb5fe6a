// Prints one step line: "@step " and a JSON object with the step's fields (a null current prints as null).
fun step(current: Int?, visited: List<Int>, frontier: List<Int>) {
    println("@step {\"current\": $current, \"visited\": ${json(visited)}, \"frontier\": ${json(frontier)}}")
}

fun json(values: List<Int>): String = values.joinToString(", ", "[", "]")

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val (n, m, source) = numbers
    val neighbours = List(n) { mutableListOf<Int>() }
    for (k in 0 until m) {
        val u = numbers[3 + 2 * k]
        val v = numbers[4 + 2 * k]
        neighbours[u].add(v)
        neighbours[v].add(u)
    }
    neighbours.forEach { it.sort() }

    // Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
    val seen = BooleanArray(n)
    val visited = mutableListOf<Int>()
    val queue = mutableListOf(source)
    var head = 0
    step(null, listOf(source), queue.subList(head, queue.size))
    while (head < queue.size) {
        val node = queue[head++]
        if (seen[node]) continue
        seen[node] = true
        visited.add(node)
        for (neighbour in neighbours[node]) {
            if (!seen[neighbour]) queue.add(neighbour)
        }
        step(node, visited, queue.subList(head, queue.size))
    }
    println(visited.joinToString(" "))
}
