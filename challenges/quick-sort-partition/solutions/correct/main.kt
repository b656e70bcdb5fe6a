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
    if (lo >= hi) return
    val pivot = array[hi]
    step("pivot", listOf(hi), array)
    var i = lo
    for (j in lo until hi) {
        step("compare", listOf(j, hi), array)
        if (array[j] <= pivot) {
            if (i != j) {
                swap(array, i, j)
                step("swap", listOf(i, j), array)
            }
            i++
        }
    }
    swap(array, i, hi)
    step("place", listOf(i), array)
    quickSort(array, lo, i - 1)
    quickSort(array, i + 1, hi)
}

fun main() {
    val numbers = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }.map { it.toInt() }
    val n = numbers[0]
    val array = IntArray(n) { numbers[1 + it] }
    quickSort(array, 0, n - 1)
    step("done", listOf(), array)
    println(array.joinToString(" "))
}
