List<int> topKFrequent(List<int> items, int k) {
  final counts = <int, int>{};
  for (final item in items) {
    counts[item] = (counts[item] ?? 0) + 1;
  }
  // Wrong: ties go to the larger value.
  final values = counts.keys.toList()
    ..sort((a, b) => counts[a] != counts[b] ? counts[b]! - counts[a]! : b.compareTo(a));
  return values.take(k).toList();
}
