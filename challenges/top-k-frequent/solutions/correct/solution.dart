List<int> topKFrequent(List<int> items, int k) {
  final counts = <int, int>{};
  for (final item in items) {
    counts[item] = (counts[item] ?? 0) + 1;
  }
  final values = counts.keys.toList()
    ..sort((a, b) => counts[a] != counts[b] ? counts[b]! - counts[a]! : a.compareTo(b));
  return values.take(k).toList();
}
