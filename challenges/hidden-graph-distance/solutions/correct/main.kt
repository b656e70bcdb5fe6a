fun main() {
    val n = readln().trim().toInt()
    if (n == 1) {
        println("! 0")
        System.out.flush()
        return
    }
    val distance = IntArray(n + 1) { -1 }
    val frontier = ArrayDeque<Int>()
    distance[1] = 0
    frontier.addLast(1)
    while (frontier.isNotEmpty()) {
        val node = frontier.removeFirst()
        println("? $node")
        System.out.flush()
        val reply = readln().trim().split(" ").map { it.toInt() }
        for (neighbour in reply.drop(1)) {
            if (distance[neighbour] >= 0) continue
            distance[neighbour] = distance[node] + 1
            if (neighbour == n) {
                println("! ${distance[neighbour]}")
                System.out.flush()
                return
            }
            frontier.addLast(neighbour)
        }
    }
    println("! -1")
    System.out.flush()
}
