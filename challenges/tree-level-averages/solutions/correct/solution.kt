class Solution {
    fun levelAverages(root: TreeNode?): DoubleArray {
        val averages = ArrayList<Double>()
        var level = listOfNotNull(root)
        while (level.isNotEmpty()) {
            val sum = level.sumOf { it.`val` }
            averages.add(sum.toDouble() / level.size)
            level = level.flatMap { listOfNotNull(it.left, it.right) }
        }
        return averages.toDoubleArray()
    }
}
