List<int> twoSum(List<int> nums, int target) {
  final firstIndex = <int, int>{};
  for (var j = 0; j < nums.length; j++) {
    final partner = firstIndex[target - nums[j]];
    if (partner != null) return [partner, j];
    // Keep the first index of each value: the smallest i wins.
    firstIndex.putIfAbsent(nums[j], () => j);
  }
  return [];
}
