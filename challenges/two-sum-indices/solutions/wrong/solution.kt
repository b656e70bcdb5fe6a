class Solution {
    fun twoSum(nums: LongArray, target: Long): LongArray {
        val firstIndex = HashMap<Long, Int>()
        for ((j, value) in nums.withIndex()) {
            // Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
            firstIndex.putIfAbsent(value, j)
            val partner = firstIndex[target - value]
            if (partner != null) return longArrayOf(partner.toLong(), j.toLong())
        }
        return LongArray(0)
    }
}
