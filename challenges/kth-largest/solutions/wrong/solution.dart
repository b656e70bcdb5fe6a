int kthLargest(List<int> nums, int k) {
  // Wrong on purpose: repeated values are counted once (a set), so it finds the k-th largest distinct value.
  final distinct = nums.toSet().toList()..sort((a, b) => b.compareTo(a));
  return distinct[k - 1];
}
