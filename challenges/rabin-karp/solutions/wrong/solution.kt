import dsa.Recorder

const val BASE = 256L
const val MODULUS = 1_000_000_007L
const val STEPS_UP_TO = 100 // a longer text records only the done step

class Solution {
    private fun mod(x: Long) = (x % MODULUS + MODULUS) % MODULUS

    fun findAll(text: String, pattern: String): LongArray {
        val rec = Recorder()
        val recording = text.length <= STEPS_UP_TO
        val n = text.length
        val m = pattern.length
        val found = mutableListOf<Long>()
        var patternHash = 0L
        var windowHash = 0L
        fun step(action: String, offset: Int?, index: Int?, hash: Long?) =
            rec.step(
                action,
                linkedMapOf(
                    "text" to text, "pattern" to pattern, "offset" to offset, "index" to index,
                    "found" to found.toList(), "window_hash" to hash, "pattern_hash" to patternHash,
                ),
            )
        for (c in pattern) patternHash = mod(patternHash * BASE + c.code)
        var high = 1L // the weight of a window's first character: BASE^(m-1)
        repeat(m - 1) { high = mod(high * BASE) }
        for (offset in 0..n - m) {
            if (offset == 0) {
                for (i in 0 until m) windowHash = mod(windowHash * BASE + text[i].code)
                if (recording) step("hash", 0, null, windowHash)
            } else {
                windowHash = mod((windowHash - text[offset - 1].code * high) * BASE + text[offset + m - 1].code)
                if (recording) step("roll", offset, null, windowHash)
            }
            if (windowHash != patternHash) continue
            found.add(offset.toLong()) // Wrong on purpose: a hash hit is taken as a match, without comparing the characters.
        }
        step("done", null, null, null)
        return found.toLongArray()
    }
}
