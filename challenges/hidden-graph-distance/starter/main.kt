fun main() {
    val n = readln().trim().toLong()
    // Ask with println(...) and System.out.flush(), then read a reply: "k u1 ... uk" with readln().
    println("! -1")
    System.out.flush()
}
