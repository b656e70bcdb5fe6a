int countComponents(int n, List<List<int>> edges) {
  final parent = List<int>.generate(n, (i) => i);
  final size = List<int>.filled(n, 1);
  var hops = 0; // parent pointers followed by find, for the growth grade
  int find(int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]]; // path halving
      x = parent[x];
      hops++;
    }
    return x;
  }

  var components = n;
  for (final edge in edges) {
    var a = find(edge[0]), b = find(edge[1]);
    if (a == b) continue;
    if (size[a] < size[b]) {
      final t = a;
      a = b;
      b = t;
    }
    parent[b] = a; // the smaller tree goes under the larger one's root
    size[a] += size[b];
    components--;
  }
  print('@count $hops');
  return components;
}
