import 'dart:convert';
import 'dart:io';

/// Optional: prints one step for the app's step player, e.g. step({'action': 'look', 'j': 3}).
void step(Map<String, Object?> fields) {
  print('@step ' + jsonEncode(fields));
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = data[0];
  final m = data[1];
  final rules = [
    for (var k = 0; k < m; k++) [data[2 + 2 * k], data[3 + 2 * k]]
  ];
  // TODO: print an order of tasks 1..n that obeys every rule, or "IMPOSSIBLE".
}
