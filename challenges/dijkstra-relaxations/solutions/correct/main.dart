import 'dart:convert';
import 'dart:io';

// Prints one step line: "@step " and the fields as one JSON object (null prints as null).
void step(Map<String, Object?> fields) {
  print('@step ' + jsonEncode(fields));
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  final m = numbers[1];
  final source = numbers[2];
  final outgoing = List.generate(n, (_) => <List<int>>[]); // [to, weight]
  for (var k = 0; k < m; k++) {
    outgoing[numbers[3 + 3 * k]].add([numbers[4 + 3 * k], numbers[5 + 3 * k]]);
  }
  for (final edges in outgoing) {
    edges.sort((a, b) => a[0] != b[0] ? a[0] - b[0] : a[1] - b[1]);
  }

  final dist = List<int?>.filled(n, null);
  final settled = List.filled(n, false);
  dist[source] = 0;
  while (true) {
    int? node;
    for (var v = 0; v < n; v++) {
      final d = dist[v];
      if (!settled[v] && d != null && (node == null || d < dist[node]!)) node = v;
    }
    if (node == null) break;
    settled[node] = true;
    step({'action': 'settle', 'current': node, 'dist': dist});
    final base = dist[node]!;
    for (final edge in outgoing[node]) {
      final to = edge[0];
      final weight = edge[1];
      if (settled[to]) continue;
      final through = base + weight;
      final old = dist[to];
      final relaxed = old == null || through < old;
      if (relaxed) dist[to] = through;
      step({'action': 'relax', 'current': node, 'dist': dist, 'edge': [node, to, weight], 'relaxed': relaxed});
    }
  }
  print(dist.map((d) => d ?? -1).join(' '));
}
