// Prints one step line: "@step " and a JSON object with the step's fields.
fun step(action: String, active: List<Int>, array: IntArray) {
    println("@step {\"action\": \"$action\", \"active\": ${json(active)}, \"array\": ${json(array.toList())}}")
}

fun json(values: List<Int>): String = values.joinToString(", ", "[", "]")

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = numbers[0]
    val array = IntArray(n) { numbers[1 + it] }
    for (i in 1 until n) {
        var j = i
        while (j > 0) {
            step("compare", listOf(j - 1, j), array)
            // Too slow: no stop once the item is in place, so a sorted array costs n²/2 compares.
            if (array[j - 1] > array[j]) {
                val larger = array[j - 1]
                array[j - 1] = array[j]
                array[j] = larger
                step("swap", listOf(j - 1, j), array)
            }
            j--
        }
    }
    step("done", listOf(), array)
    println(array.joinToString(" "))
}
