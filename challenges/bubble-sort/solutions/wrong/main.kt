// Prints one step line: "@step " and a JSON object with the step's fields.
fun step(action: String, active: List<Int>, array: IntArray) {
    println("@step {\"action\": \"$action\", \"active\": ${json(active)}, \"array\": ${json(array.toList())}}")
}

fun json(values: List<Int>): String = values.joinToString(", ", "[", "]")

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = numbers[0]
    val array = IntArray(n) { numbers[1 + it] }
    for (donePasses in 0 until n - 1) {
        var swapped = false
        // Wrong on purpose: every pass runs to the end, over items already bubbled into place.
        for (j in 0 until n - 1) {
            step("compare", listOf(j, j + 1), array)
            if (array[j] > array[j + 1]) {
                val larger = array[j]
                array[j] = array[j + 1]
                array[j + 1] = larger
                swapped = true
                step("swap", listOf(j, j + 1), array)
            }
        }
        if (!swapped) break
    }
    step("done", listOf(), array)
    println(array.joinToString(" "))
}
