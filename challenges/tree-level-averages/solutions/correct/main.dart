import 'dart:convert';
import 'dart:io';

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = data[0];
  final values = data.sublist(1, 1 + n);
  final children = List.generate(n, (_) => <int>[]);
  for (var child = 0; child < n; child++) {
    final parent = data[1 + n + child];
    if (parent >= 0) children[parent].add(child);
  }
  final out = StringBuffer();
  var level = n > 0 ? [0] : <int>[];
  while (level.isNotEmpty) {
    final sum = level.fold<int>(0, (total, node) => total + values[node]);
    out.writeln((sum / level.length).toStringAsFixed(9));
    level = [for (final node in level) ...children[node]];
  }
  stdout.write(out);
}
