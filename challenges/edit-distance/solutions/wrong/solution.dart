int editDistance(String a, String b) {
  // Wrong on purpose: the first row and column start at 0, as if deleting or inserting a prefix were free.
  var prev = List<int>.filled(b.length + 1, 0);
  var cur = List<int>.filled(b.length + 1, 0);
  for (var i = 1; i <= a.length; i++) {
    for (var j = 1; j <= b.length; j++) {
      final replace = prev[j - 1] + (a.codeUnitAt(i - 1) == b.codeUnitAt(j - 1) ? 0 : 1);
      var best = prev[j] + 1;
      if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
      if (replace < best) best = replace;
      cur[j] = best;
    }
    final t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length];
}
