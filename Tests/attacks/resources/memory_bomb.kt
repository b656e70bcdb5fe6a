// attack: fill the heap from Kotlin with lists of boxed numbers without end
// limits: memory_mb=128
// expect: status in [memory_limit]; elapsed_s < 15
fun main() {
    val held = ArrayList<Any>()
    var i = 0L
    while (true) {
        held.add(LongArray(1 shl 18) { i++ })
    }
}
