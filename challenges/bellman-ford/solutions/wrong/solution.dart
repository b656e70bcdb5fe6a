const unreachable = 1000000000000000000;

List<int> shortestFrom(int n, List<List<int>> edges, int source) {
  final dist = List.filled(n, unreachable);
  dist[source] = 0;
  for (var round = 0; round < n - 1; round++) {
    // A shortest path has at most n - 1 edges.
    var changed = false;
    for (final edge in edges) {
      final u = edge[0], v = edge[1], w = edge[2];
      // Wrong on purpose: no check that u is reachable, so an edge out of an unreachable node relaxes its target (10^18 + w).
      if (dist[u] + w < dist[v]) {
        dist[v] = dist[u] + w;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (final edge in edges) {
    final u = edge[0], v = edge[1], w = edge[2];
    // Still relaxing after n - 1 rounds: a negative cycle is reachable.
    if (dist[u] + w < dist[v]) return [];
  }
  return dist;
}
