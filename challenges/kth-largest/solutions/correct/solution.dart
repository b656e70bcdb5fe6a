int kthLargest(List<int> nums, int k) {
  final heap = <int>[]; // a min-heap of the k largest values seen so far
  var comparisons = 0; // comparisons of two values, for the growth grade
  bool less(int a, int b) {
    comparisons++;
    return a < b;
  }

  void swap(int i, int j) {
    final t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  }

  for (final value in nums) {
    heap.add(value);
    for (var i = heap.length - 1; i > 0 && less(heap[i], heap[(i - 1) >> 1]); i = (i - 1) >> 1) {
      swap(i, (i - 1) >> 1);
    }
    if (heap.length > k) {
      final last = heap.removeLast();
      heap[0] = last;
      var i = 0;
      while (true) {
        final left = 2 * i + 1, right = left + 1;
        var smallest = i;
        if (left < heap.length && less(heap[left], heap[smallest])) smallest = left;
        if (right < heap.length && less(heap[right], heap[smallest])) smallest = right;
        if (smallest == i) break;
        swap(i, smallest);
        i = smallest;
      }
    }
  }
  print('@count $comparisons');
  return heap[0];
}
