val out = StringBuilder()

// One step line per comparison of two items.
fun compare() {
    out.append("@step {\"action\": \"compare\"}\n")
}

fun mergeSort(items: LongArray, scratch: LongArray, lo: Int, hi: Int) {
    if (hi - lo < 2) return
    val mid = lo + (hi - lo) / 2
    mergeSort(items, scratch, lo, mid)
    mergeSort(items, scratch, mid, hi)
    var i = lo
    var j = mid
    var k = lo
    while (i < mid && j < hi) {
        compare()
        scratch[k++] = if (items[i] <= items[j]) items[i++] else items[j++]
    }
    while (i < mid) scratch[k++] = items[i++]
    while (j < hi) scratch[k++] = items[j++]
    for (x in lo until hi) items[x] = scratch[x]
}

fun main() {
    val tokens = generateSequence(::readLine).joinToString(" ").split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = tokens[0].toInt()
    val items = LongArray(n) { tokens[1 + it].toLong() }
    mergeSort(items, LongArray(n), 0, n)
    out.append(items.joinToString(" ")).append('\n')
    print(out)
}
