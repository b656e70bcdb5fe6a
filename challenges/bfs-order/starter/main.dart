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

  final order = <int>[];
  // TODO: breadth-first search from source. Report the start, then each node taken from the queue:
  //   step({'current': null, 'visited': [source], 'frontier': [source]});
  //   step({'current': node, 'visited': visited, 'frontier': queue});   (the queue, front first)
  print(order.join(' '));
}
