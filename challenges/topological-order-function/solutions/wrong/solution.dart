List<int> topologicalOrder(int n, List<List<int>> edges) {
  final successors = List.generate(n + 1, (_) => <int>[]);
  final inDegree = List.filled(n + 1, 0);
  for (final edge in edges) {
    successors[edge[0]].add(edge[1]);
    inDegree[edge[1]]++;
  }
  final order = <int>[];
  for (var task = 1; task <= n; task++) {
    if (inDegree[task] == 0) order.add(task);
  }
  for (var head = 0; head < order.length; head++) {
    for (final after in successors[order[head]]) {
      if (--inDegree[after] == 0) order.add(after);
    }
  }
  // Mistake: a cycle is never detected; the tasks on it are silently left out.
  return order;
}
