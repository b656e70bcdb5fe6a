import java.util.*;

class Solution {
    public static long[] twoSum(long[] nums, long target) {
        Map<Long, Integer> firstIndex = new HashMap<>();
        for (int j = 0; j < nums.length; j++) {
            // Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
            firstIndex.putIfAbsent(nums[j], j);
            Integer partner = firstIndex.get(target - nums[j]);
            if (partner != null) return new long[] {partner, j};
        }
        return new long[0];
    }
}
