fun main() {
    val n = readln().trim().toLong()
    var low = 1L
    var high = n
    while (low < high) {
        val middle = low + (high - low) / 2
        println("? $middle")
        System.out.flush()
        when (readln().trim()) {
            "=" -> { low = middle; high = middle }
            "<" -> high = middle - 1
            else -> low = middle + 1
        }
    }
    println("! $low")
    System.out.flush()
}
