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
  final neighbours = List.generate(n, (_) => <int>[]);
  for (var k = 0; k < m; k++) {
    final u = numbers[3 + 2 * k];
    final v = numbers[4 + 2 * k];
    neighbours[u].add(v);
    neighbours[v].add(u);
  }
  for (final adjacent in neighbours) {
    adjacent.sort();
  }

  // Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
  final seen = List.filled(n, false);
  final visited = <int>[];
  final queue = [source];
  var head = 0;
  step({'current': null, 'visited': [source], 'frontier': queue.sublist(head)});
  while (head < queue.length) {
    final node = queue[head++];
    if (seen[node]) continue;
    seen[node] = true;
    visited.add(node);
    for (final neighbour in neighbours[node]) {
      if (!seen[neighbour]) queue.add(neighbour);
    }
    step({'current': node, 'visited': visited, 'frontier': queue.sublist(head)});
  }
  print(visited.join(' '));
}
