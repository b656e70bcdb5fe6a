class Solution {
    fun twoSum(nums: LongArray, target: Long): LongArray {
        val firstIndex = HashMap<Long, Int>()
        for ((j, value) in nums.withIndex()) {
            val partner = firstIndex[target - value]
            if (partner != null) return longArrayOf(partner.toLong(), j.toLong())
            // Keep the first index of each value: the smallest i wins.
            firstIndex.putIfAbsent(value, j)
        }
        return LongArray(0)
    }
}
