int editDistance(String a, String b) {
  var prev = List<int>.generate(b.length + 1, (j) => j); // row 0: insert b's first j characters
  var cur = List<int>.filled(b.length + 1, 0);
  for (var i = 1; i <= a.length; i++) {
    cur[0] = i; // column 0: delete a's first i characters
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
