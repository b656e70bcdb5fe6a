int mstWeight(int n, List<List<int>> edges) {
  final parent = List<int>.generate(n, (i) => i);
  int find(int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]]; // path halving
      x = parent[x];
    }
    return x;
  }

  final sorted = [...edges]..sort((a, b) => a[2].compareTo(b[2])); // Kruskal: cheapest edges first
  var total = 0, joined = 0;
  for (final edge in sorted) {
    final a = find(edge[0]), b = find(edge[1]);
    if (a != b) {
      // joins two components, so it makes no cycle
      parent[a] = b;
      total += edge[2];
      joined++;
    }
  }
  return joined == n - 1 ? total : -1;
}
