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

    // The queue keeps every node ever queued: it is the visited order, and its tail from head the frontier.
    val seen = BooleanArray(n)
    seen[source] = true
    val queue = mutableListOf(source)
    var head = 0
    step(null, queue, queue.subList(head, queue.size))
    // Every neighbour looked at is counted, for the growth grade (@count).
    var checks = 0L
    while (head < queue.size) {
        val node = queue[head++]
        for (neighbour in neighbours[node]) {
            checks++
            if (!seen[neighbour]) {
                seen[neighbour] = true
                queue.add(neighbour)
            }
        }
        step(node, queue, queue.subList(head, queue.size))
    }
    println("@count $checks")
    println(queue.joinToString(" "))
}
