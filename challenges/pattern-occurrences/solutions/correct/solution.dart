List<int> findOccurrences(String text, String pattern) {
  var comparisons = 0; // character comparisons, for the growth grade
  bool same(int a, int b) {
    comparisons++;
    return a == b;
  }

  // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
  final p = pattern.codeUnits, t = text.codeUnits;
  final fail = List<int>.filled(p.length, 0);
  var k = 0;
  for (var i = 1; i < p.length; i++) {
    while (k > 0 && !same(p[i], p[k])) k = fail[k - 1];
    if (same(p[i], p[k])) k++;
    fail[i] = k;
  }
  final found = <int>[];
  k = 0;
  for (var i = 0; i < t.length; i++) {
    while (k > 0 && !same(t[i], p[k])) k = fail[k - 1];
    if (same(t[i], p[k])) k++;
    if (k == p.length) {
      found.add(i - k + 1);
      k = fail[k - 1];
    }
  }
  print('@count $comparisons');
  return found;
}
