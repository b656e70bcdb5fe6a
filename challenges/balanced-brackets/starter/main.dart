import 'dart:convert';
import 'dart:io';

/// Optional: prints one step for the app's step player, e.g. step({'action': 'look', 'j': 3}).
void step(Map<String, Object?> fields) {
  print('@step ' + jsonEncode(fields));
}

bool balanced(String text) {
  // TODO: return true when the brackets of text are balanced.
  return false;
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).toList();
  final count = int.parse(data[0]);
  for (final text in data.sublist(1, 1 + count)) {
    print(balanced(text) ? 'YES' : 'NO');
  }
}
