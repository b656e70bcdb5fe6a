import dsa.Recorder
import java.util.IdentityHashMap

class Solution {
    fun inorder(root: TreeNode?): LongArray {
        val rec = Recorder()
        // Ids in level order (root 0, then each level left to right), as the test's array lists them.
        val ids = IdentityHashMap<TreeNode, Int>()
        val order = mutableListOf<TreeNode>()
        val queue = ArrayDeque<TreeNode>()
        if (root != null) queue.addLast(root)
        while (queue.isNotEmpty()) {
            val node = queue.removeFirst()
            ids[node] = order.size
            order.add(node)
            node.left?.let { queue.addLast(it) }
            node.right?.let { queue.addLast(it) }
        }
        val nodes = order.map { node ->
            linkedMapOf("id" to ids[node], "value" to node.`val`, "left" to node.left?.let { ids[it] }, "right" to node.right?.let { ids[it] })
        }
        val rootId = if (root == null) null else 0
        val visited = mutableListOf<Int>()
        val values = mutableListOf<Long>()
        fun fields(active: List<Int>) = linkedMapOf("root" to rootId, "nodes" to nodes, "active" to active, "visited" to visited.toList())
        fun walk(node: TreeNode?) {
            if (node == null) return
            walk(node.left)
            visited.add(ids[node]!!)
            values.add(node.`val`)
            rec.step("visit", fields(listOf(ids[node]!!)), "Visit ${node.`val`}")
            walk(node.right)
        }
        walk(root)
        rec.step("done", fields(listOf()), "Every node visited")
        return values.toLongArray()
    }
}
