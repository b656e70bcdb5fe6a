// Slow on purpose: no union by size and no path compression, so the trees can grow as tall as a
// chain and each find walks all of it.
int countComponents(int n, List<List<int>> edges) {
  final parent = List<int>.generate(n, (i) => i);
  var hops = 0;
  int find(int x) {
    while (parent[x] != x) {
      x = parent[x];
      hops++;
    }
    return x;
  }

  var components = n;
  for (final edge in edges) {
    final a = find(edge[0]), b = find(edge[1]);
    if (a != b) {
      parent[a] = b;
      components--;
    }
  }
  print('@count $hops');
  return components;
}
