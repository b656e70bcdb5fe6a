List<int> courseOrder(int n, List<List<int>> prerequisites) {
  final unlocks = List.generate(n, (_) => <int>[]);
  final waiting = List<int>.filled(n, 0); // unmet prerequisites of each course
  for (final pair in prerequisites) {
    unlocks[pair[1]].add(pair[0]);
    waiting[pair[0]]++;
  }
  // Wrong on purpose: a FIFO queue, so a course freed later comes after bigger ones that waited.
  final queue = <int>[];
  for (var c = 0; c < n; c++) {
    if (waiting[c] == 0) queue.add(c);
  }
  for (var head = 0; head < queue.length; head++) {
    for (final next in unlocks[queue[head]]) {
      if (--waiting[next] == 0) queue.add(next);
    }
  }
  return queue.length == n ? queue : <int>[];
}
