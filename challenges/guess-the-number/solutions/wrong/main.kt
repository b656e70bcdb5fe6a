// Asks every number in turn: right in the end, but far more questions than a binary search.
fun main() {
    val n = readln().trim().toLong()
    for (guess in 1L..n) {
        println("? $guess")
        System.out.flush()
        val reply = readlnOrNull() ?: return
        if (reply.trim() == "=") {
            println("! $guess")
            System.out.flush()
            return
        }
    }
}
