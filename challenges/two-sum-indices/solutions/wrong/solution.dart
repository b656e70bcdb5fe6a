List<int> twoSum(List<int> nums, int target) {
  final firstIndex = <int, int>{};
  for (var j = 0; j < nums.length; j++) {
    // Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
    firstIndex.putIfAbsent(nums[j], () => j);
    final partner = firstIndex[target - nums[j]];
    if (partner != null) return [partner, j];
  }
  return [];
}
