import java.util.*;

class Solution {
    public static long[] twoSum(long[] nums, long target) {
        Map<Long, Integer> firstIndex = new HashMap<>();
        for (int j = 0; j < nums.length; j++) {
            Integer partner = firstIndex.get(target - nums[j]);
            if (partner != null) return new long[] {partner, j};
            // Keep the first index of each value: the smallest i wins.
            firstIndex.putIfAbsent(nums[j], j);
        }
        return new long[0];
    }
}
