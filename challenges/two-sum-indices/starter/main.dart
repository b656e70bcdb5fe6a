import 'dart:convert';
import 'dart:io';

/// Optional: prints one step for the app's step player, e.g. step({'action': 'look', 'j': 3}).
void step(Map<String, Object?> fields) {
  print('@step ' + jsonEncode(fields));
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).toList();
  final n = int.parse(data[0]);
  final target = int.parse(data[1]);
  final values = [for (var k = 0; k < n; k++) int.parse(data[2 + k])];
  // TODO: find positions i < j with values[i] + values[j] == target (smallest j, then smallest i)
  // and print them counting from 1, or "0 0" when there is no such pair.
  print('0 0');
}
