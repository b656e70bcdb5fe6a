class Solution {
    fun countPrefixes(words: Array<String>, prefixes: Array<String>): LongArray {
        // Node 0 is the root, so 0 also means "no child"; child[node * 26 + letter] is a node.
        var child = IntArray(26 * 1024)
        var passing = LongArray(1024) // passing[node]: how many words' paths pass through the node
        var size = 1
        for (word in words) {
            var node = 0
            passing[0]++
            for (letter in word) {
                val slot = node * 26 + (letter - 'a')
                if (child[slot] == 0) {
                    if (size == passing.size) {
                        child = child.copyOf(child.size * 2)
                        passing = passing.copyOf(passing.size * 2)
                    }
                    child[slot] = size++
                }
                node = child[slot]
                passing[node]++
            }
        }
        return LongArray(prefixes.size) { p ->
            var node = 0
            var count = passing[0]
            for (letter in prefixes[p]) {
                node = child[node * 26 + (letter - 'a')]
                if (node == 0) {
                    count = 0
                    break
                }
                count = passing[node]
            }
            count
        }
    }
}
