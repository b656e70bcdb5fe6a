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

    val order = mutableListOf<Int>()
    // TODO: breadth-first search from source. Report the start, then each node taken from the queue:
    //   step(null, listOf(source), listOf(source))
    //   step(node, visited, queue)   (the queue, front first)
    println(order.joinToString(" "))
}
