class Solution {
    fun isValidBst(root: TreeNode?): Boolean = within(root, null, null)

    // low and high are the open range set by the ancestors; null is "no bound".
    private fun within(node: TreeNode?, low: Long?, high: Long?): Boolean {
        if (node == null) return true
        if ((low != null && node.`val` <= low) || (high != null && node.`val` >= high)) return false
        return within(node.left, low, node.`val`) && within(node.right, node.`val`, high)
    }
}
