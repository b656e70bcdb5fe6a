// Wrong on purpose: the current end is taken from the last interval, not the largest seen.
List<List<int>> mergeIntervals(List<List<int>> intervals) {
  final sorted = [...intervals]..sort((a, b) => a[0] != b[0] ? a[0].compareTo(b[0]) : a[1].compareTo(b[1]));
  final merged = <List<int>>[];
  for (final interval in sorted) {
    if (merged.isNotEmpty && interval[0] <= merged.last[1]) {
      merged.last[1] = interval[1];
    } else {
      merged.add([interval[0], interval[1]]);
    }
  }
  return merged;
}
