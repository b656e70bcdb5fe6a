// Slow on purpose: k rounds of taking out the largest value left, O(n x k).
int kthLargest(List<int> nums, int k) {
  var comparisons = 0;
  bool less(int a, int b) {
    comparisons++;
    return a < b;
  }

  final left = List<int>.of(nums);
  var largest = left[0];
  for (var round = 0; round < k; round++) {
    var at = 0;
    for (var i = 1; i < left.length; i++) {
      if (less(left[at], left[i])) at = i;
    }
    largest = left[at];
    left[at] = left.last;
    left.removeLast();
  }
  print('@count $comparisons');
  return largest;
}
