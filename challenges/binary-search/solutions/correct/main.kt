// Prints one step line: "@step " and a JSON object with the step's fields (a null mid prints as null).
fun step(low: Int, high: Int, mid: Int?, found: Boolean) {
    println("@step {\"low\": $low, \"high\": $high, \"mid\": $mid, \"found\": $found}")
}

fun search(array: List<Int>, target: Int): Int {
    var low = 0
    var high = array.size - 1
    while (low <= high) {
        val mid = low + (high - low) / 2
        val found = array[mid] == target
        step(low, high, mid, found)
        if (found) return mid
        if (array[mid] < target) low = mid + 1 else high = mid - 1
    }
    step(low, high, null, false)
    return -1
}

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = numbers[0]
    val array = numbers.subList(1, 1 + n)
    val target = numbers[1 + n]
    println(search(array, target))
}
