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
  final intervals = [
    for (var k = 0; k < n; k++) [data[1 + 2 * k], data[2 + 2 * k]]
  ];
  // TODO: merge the overlapping intervals and print them from left to right, one "l r" per line.
}
