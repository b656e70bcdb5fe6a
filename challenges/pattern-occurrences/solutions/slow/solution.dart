// Slow on purpose: the pattern is checked at every start, O(len(text) x len(pattern)).
List<int> findOccurrences(String text, String pattern) {
  var comparisons = 0;
  bool same(int a, int b) {
    comparisons++;
    return a == b;
  }

  final p = pattern.codeUnits, t = text.codeUnits;
  final found = <int>[];
  for (var start = 0; start + p.length <= t.length; start++) {
    var j = 0;
    while (j < p.length && same(t[start + j], p[j])) j++;
    if (j == p.length) found.add(start);
  }
  print('@count $comparisons');
  return found;
}
