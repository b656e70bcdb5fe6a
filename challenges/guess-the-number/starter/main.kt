fun main() {
    val n = readln().trim().toLong()
    // Ask with println(...) and System.out.flush(), then read a reply: "<", ">" or "=" with readln().
    println("! 1")
    System.out.flush()
}
