// A depth-first search: it finds a path to node n, but not always a shortest one.
fun main() {
    val n = readln().trim().toInt()
    val seen = BooleanArray(n + 1)
    val stack = ArrayDeque<Pair<Int, Int>>()
    seen[1] = true
    stack.addLast(Pair(1, 0))
    while (stack.isNotEmpty()) {
        val (node, depth) = stack.removeLast()
        if (node == n) {
            println("! $depth")
            System.out.flush()
            return
        }
        println("? $node")
        System.out.flush()
        val neighbours = readln().trim().split(" ").map { it.toInt() }.drop(1)
        for (neighbour in neighbours.reversed()) {
            if (seen[neighbour]) continue
            seen[neighbour] = true
            stack.addLast(Pair(neighbour, depth + 1))
        }
    }
    println("! -1")
    System.out.flush()
}
