lateinit var values: LongArray
lateinit var used: BooleanArray
val prefix = ArrayList<Long>()
val out = StringBuilder()

fun extend() {
    if (prefix.size == values.size) {
        out.append(prefix.joinToString(" ")).append('\n')
        return
    }
    for (k in values.indices) {
        // Equal values are tried in sorted order only, so each distinct value is tried once here.
        if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue
        used[k] = true
        prefix.add(values[k])
        extend()
        prefix.removeAt(prefix.size - 1)
        used[k] = false
    }
}

fun main() {
    val data = System.`in`.bufferedReader().readText().split(Regex("\\s+")).filter { it.isNotEmpty() }
    val n = data[0].toInt()
    values = LongArray(n) { data[1 + it].toLong() }.sortedArray()
    used = BooleanArray(n)
    extend()
    print(out)
}
