import 'dart:convert';
import 'dart:io';

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = data[0];
  final m = data[1];
  final successors = List.generate(n + 1, (_) => <int>[]);
  final inDegree = List.filled(n + 1, 0);
  for (var k = 0; k < m; k++) {
    final u = data[2 + 2 * k];
    final v = data[3 + 2 * k];
    successors[u].add(v);
    inDegree[v]++;
  }
  final order = [
    for (var node = 1; node <= n; node++)
      if (inDegree[node] == 0) node
  ];
  // order doubles as the queue: the nodes after index head are ready but not yet expanded.
  for (var head = 0; head < order.length; head++) {
    for (final successor in successors[order[head]]) {
      inDegree[successor]--;
      if (inDegree[successor] == 0) order.add(successor);
    }
  }
  // Tasks on or behind a cycle never reach in-degree 0.
  print(order.length == n ? order.join(' ') : 'IMPOSSIBLE');
}
