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

  // The queue keeps every node ever queued: it is the visited order, and its tail from head the frontier.
  final matrix = List.generate(n, (u) {
    final row = List.filled(n, false);
    for (final v in neighbours[u]) {
      row[v] = true;
    }
    return row;
  });
  final seen = List.filled(n, false);
  seen[source] = true;
  final queue = [source];
  var head = 0;
  step({'current': null, 'visited': queue, 'frontier': queue.sublist(head)});
  // Every neighbour looked at is counted, for the growth grade (@count).
  var checks = 0;
  while (head < queue.length) {
    final node = queue[head++];
    // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
    for (var neighbour = 0; neighbour < n; neighbour++) {
      checks++;
      if (matrix[node][neighbour] && !seen[neighbour]) {
        seen[neighbour] = true;
        queue.add(neighbour);
      }
    }
    step({'current': node, 'visited': queue, 'frontier': queue.sublist(head)});
  }
  print('@count $checks');
  print(queue.join(' '));
}
