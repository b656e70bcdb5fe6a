// Prints one step line: "@step " and a JSON object with the step's fields.
fun step(action: String, active: List<Int>, array: IntArray) {
    println("@step {\"action\": \"$action\", \"active\": ${json(active)}, \"array\": ${json(array.toList())}}")
}

fun json(values: List<Int>): String = values.joinToString(", ", "[", "]")

fun swap(array: IntArray, a: Int, b: Int) {
    val kept = array[a]
    array[a] = array[b]
    array[b] = kept
}

fun quickSort(array: IntArray, lo: Int, hi: Int) {
    // TODO: if lo < hi, Lomuto-partition array[lo..hi] around array[hi], then sort both parts. Report:
    //   step("pivot", listOf(hi), array)
    //   step("compare", listOf(j, hi), array)
    //   step("swap", listOf(i, j), array)
    //   step("place", listOf(i), array)
}

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = numbers[0]
    val array = IntArray(n) { numbers[1 + it] }
    quickSort(array, 0, n - 1)
    step("done", listOf(), array)
    println(array.joinToString(" "))
}
