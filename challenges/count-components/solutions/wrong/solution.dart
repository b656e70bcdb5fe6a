int countComponents(int n, List<List<int>> edges) {
  final parent = List<int>.generate(n, (i) => i);
  int find(int x) {
    while (parent[x] != x) x = parent[x];
    return x;
  }

  // Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it.
  for (final edge in edges) parent[edge[1]] = find(edge[0]);
  var roots = 0;
  for (var x = 0; x < n; x++) if (parent[x] == x) roots++;
  return roots;
}
