List<int> courseOrder(int n, List<List<int>> prerequisites) {
  final unlocks = List.generate(n, (_) => <int>[]);
  final waiting = List<int>.filled(n, 0); // unmet prerequisites of each course
  for (final pair in prerequisites) {
    unlocks[pair[1]].add(pair[0]);
    waiting[pair[0]]++;
  }
  final heap = <int>[]; // a min-heap: the smallest ready course first
  void swap(int i, int j) {
    final t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  }

  void push(int value) {
    heap.add(value);
    for (var i = heap.length - 1; i > 0 && heap[i] < heap[(i - 1) >> 1]; i = (i - 1) >> 1) {
      swap(i, (i - 1) >> 1);
    }
  }

  int pop() {
    final top = heap[0], last = heap.removeLast();
    if (heap.isNotEmpty) {
      heap[0] = last;
      var i = 0;
      while (true) {
        final left = 2 * i + 1, right = left + 1;
        var smallest = i;
        if (left < heap.length && heap[left] < heap[smallest]) smallest = left;
        if (right < heap.length && heap[right] < heap[smallest]) smallest = right;
        if (smallest == i) break;
        swap(i, smallest);
        i = smallest;
      }
    }
    return top;
  }

  for (var c = 0; c < n; c++) {
    if (waiting[c] == 0) push(c);
  }
  final order = <int>[];
  while (heap.isNotEmpty) {
    final c = pop();
    order.add(c);
    for (final next in unlocks[c]) {
      if (--waiting[next] == 0) push(next);
    }
  }
  return order.length == n ? order : <int>[]; // fewer: the rest wait on each other
}
