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
  final values = data.sublist(1, 1 + n);
  // TODO: print every distinct permutation of values once, one per line (any order).
}
