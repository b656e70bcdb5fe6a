List<int> countPrefixes(List<String> words, List<String> prefixes) {
  // Node 0 is the root, so 0 also means "no child"; child[node * 26 + letter] is a node.
  final child = <int>[...List.filled(26, 0)];
  final passing = <int>[0]; // passing[node]: how many words' paths pass through the node
  const a = 97; // 'a'
  for (final word in words) {
    var node = 0;
    passing[0]++;
    for (final unit in word.codeUnits) {
      final slot = node * 26 + (unit - a);
      if (child[slot] == 0) {
        child[slot] = passing.length;
        child.addAll(List.filled(26, 0));
        passing.add(0);
      }
      node = child[slot];
      passing[node]++;
    }
  }
  return [
    for (final prefix in prefixes)
      () {
        var node = 0;
        for (final unit in prefix.codeUnits) {
          node = child[node * 26 + (unit - a)];
          if (node == 0) return 0;
        }
        return passing[node];
      }()
  ];
}
