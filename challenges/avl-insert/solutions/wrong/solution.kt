import dsa.Recorder

class Solution {
    // Node k (the k-th value inserted) keeps id k; -1 is "no node".
    private val rec = Recorder()
    private val value = mutableListOf<Long>()
    private val left = mutableListOf<Int>()
    private val right = mutableListOf<Int>()
    private val height = mutableListOf<Int>()
    private var root = -1

    private fun h(x: Int) = if (x == -1) 0 else height[x]

    private fun update(x: Int) {
        height[x] = 1 + maxOf(h(left[x]), h(right[x]))
    }

    private fun record(action: String, active: Int, caption: String) {
        val drawn = IntArray(value.size) // the heights in the tree as drawn, whatever is stored yet
        fun fill(x: Int): Int = if (x == -1) 0 else (1 + maxOf(fill(left[x]), fill(right[x]))).also { drawn[x] = it }
        fill(root)
        val nodes = value.indices.map { k ->
            linkedMapOf(
                "id" to k, "value" to value[k], "left" to left[k].takeIf { it != -1 },
                "right" to right[k].takeIf { it != -1 }, "height" to drawn[k],
            )
        }
        rec.step(action, linkedMapOf("root" to root, "nodes" to nodes, "active" to listOf(active)), caption)
    }

    private fun rotate(z: Int, parent: Int, toLeft: Boolean) { // z's child moves up into z's place
        val y: Int
        if (toLeft) {
            y = right[z]
            right[z] = left[y]
            left[y] = z
        } else {
            y = left[z]
            left[z] = right[y]
            right[y] = z
        }
        update(z)
        update(y)
        when {
            parent == -1 -> root = y
            left[parent] == z -> left[parent] = y
            else -> right[parent] = y
        }
        record("rotate", z, "Rotate ${if (toLeft) "left" else "right"} at ${value[z]}")
    }

    private fun insert(v: Long) {
        val node = value.size
        value.add(v)
        left.add(-1)
        right.add(-1)
        height.add(1)
        val path = mutableListOf<Int>() // from the root down to the new node's parent
        if (root == -1) {
            root = node
        } else {
            var current = root
            while (current != -1) {
                path.add(current)
                current = if (v < value[current]) left[current] else right[current]
            }
            val parent = path.last()
            if (v < value[parent]) left[parent] = node else right[parent] = node // ties go right
        }
        record("insert", node, "Insert $v")
        for (depth in path.indices.reversed()) { // back up the path: heights, then balance
            val z = path[depth]
            val parent = if (depth > 0) path[depth - 1] else -1
            update(z)
            val balance = h(left[z]) - h(right[z])
            if (balance > 1) {
                // Wrong on purpose: no double rotations, so a left-right or right-left case gets one rotation that leaves it unbalanced.
                rotate(z, parent, false)
            } else if (balance < -1) {
                rotate(z, parent, true)
            }
        }
    }

    private fun toTree(x: Int): TreeNode? =
        if (x == -1) null else TreeNode(value[x]).also { it.left = toTree(left[x]); it.right = toTree(right[x]) }

    fun avlInsertAll(values: LongArray): TreeNode? {
        for (v in values) insert(v)
        return toTree(root)
    }
}
