// Prints one step line: "@step " and a JSON object with the step's fields.
fun step(action: String, active: List<Int>, array: IntArray) {
    println("@step {\"action\": \"$action\", \"active\": ${json(active)}, \"array\": ${json(array.toList())}}")
}

fun json(values: List<Int>): String = values.joinToString(", ", "[", "]")

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = numbers[0]
    val array = IntArray(n) { numbers[1 + it] }
    // TODO: bubble sort, stopping after a pass without swaps. Report each comparison and swap, then the end:
    //   step("compare", listOf(j, j + 1), array)
    //   step("swap", listOf(j, j + 1), array)
    //   step("done", listOf(), array)
    println(array.joinToString(" "))
}
