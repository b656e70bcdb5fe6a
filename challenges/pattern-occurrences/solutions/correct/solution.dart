List<int> findOccurrences(String text, String pattern) {
  // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
  final p = pattern.codeUnits, t = text.codeUnits;
  final fail = List<int>.filled(p.length, 0);
  var k = 0;
  for (var i = 1; i < p.length; i++) {
    while (k > 0 && p[i] != p[k]) k = fail[k - 1];
    if (p[i] == p[k]) k++;
    fail[i] = k;
  }
  final found = <int>[];
  k = 0;
  for (var i = 0; i < t.length; i++) {
    while (k > 0 && t[i] != p[k]) k = fail[k - 1];
    if (t[i] == p[k]) k++;
    if (k == p.length) {
      found.add(i - k + 1);
      k = fail[k - 1];
    }
  }
  return found;
}
