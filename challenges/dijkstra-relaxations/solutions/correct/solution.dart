import 'package:dsa/dsa.dart';

List<int> dijkstra(int n, List<List<int>> edges, int source) {
  final rec = Recorder<int>();
  final outgoing = List.generate(n, (_) => <List<int>>[]);
  for (final e in edges) {
    outgoing[e[0]].add([e[1], e[2]]);
  }
  for (final links in outgoing) {
    // Ascending (node, weight): the order the steps follow.
    links.sort((a, b) => a[0] != b[0] ? a[0].compareTo(b[0]) : a[1].compareTo(b[1]));
  }
  final dist = List<int?>.filled(n, null); // null: not reached yet
  final settled = List.filled(n, false);
  dist[source] = 0;
  while (true) {
    var node = -1;
    for (var v = 0; v < n; v++) {
      if (!settled[v] && dist[v] != null && (node < 0 || dist[v]! < dist[node]!)) node = v;
    }
    if (node < 0) break;
    settled[node] = true;
    rec.step('settle', {'current': node, 'dist': dist});
    for (final link in outgoing[node]) {
      final to = link[0], weight = link[1];
      if (settled[to]) continue;
      final through = dist[node]! + weight;
      final relaxed = dist[to] == null || through < dist[to]!;
      if (relaxed) dist[to] = through;
      rec.step('relax', {
        'current': node,
        'dist': dist,
        'edge': [node, to, weight],
        'relaxed': relaxed,
      });
    }
  }
  return [for (final d in dist) d ?? -1];
}
