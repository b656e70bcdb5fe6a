import 'package:dsa/dsa.dart';

const unreachable = 1000000000000000000;

// A step's fields: the table with null for a pair with no path known yet, the cell, the cells read.
Map<String, Object?> stepFields(List<List<int>> dist, List<int>? cell, List<List<int>> reads) => {
      'table': [
        for (final row in dist) [for (final d in row) d == unreachable ? null : d]
      ],
      'cell': cell,
      'reads': reads,
    };

List<List<int>> allPairs(int n, List<List<int>> edges) {
  final rec = Recorder<int>();
  final dist = [
    for (var i = 0; i < n; i++) [for (var j = 0; j < n; j++) i == j ? 0 : unreachable]
  ];
  for (final edge in edges) {
    final u = edge[0], v = edge[1], w = edge[2];
    if (w < dist[u][v]) dist[u][v] = w;
  }
  rec.step('init', stepFields(dist, null, []), "0 on the diagonal, each edge's weight");
  for (var k = 0; k < n; k++) {
    // Paths whose inner nodes are all below k + 1.
    for (var i = 0; i < n; i++) {
      for (var j = 0; j < n; j++) {
        if (dist[i][k] == unreachable || dist[k][j] == unreachable) continue;
        final through = dist[i][k] + dist[k][j];
        if (through < dist[i][j]) {
          dist[i][j] = through;
          rec.step(
              'relax',
              stepFields(dist, [i, j], [
                [i, k],
                [k, j]
              ]),
              '$i to $j through $k: $through');
        }
      }
    }
  }
  rec.step('done', stepFields(dist, null, []), "Every pair's shortest distance");
  return dist;
}
