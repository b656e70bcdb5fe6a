import 'dart:convert';
import 'dart:io';

// Prints one step line: "@step " and the fields as one JSON object.
void step(Map<String, Object?> fields) {
  print('@step ' + jsonEncode(fields));
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  final array = numbers.sublist(1, 1 + n);
  // TODO: bubble sort, stopping after a pass without swaps. Report each comparison and swap, then the end:
  //   step({'action': 'compare', 'active': [j, j + 1], 'array': array});
  //   step({'action': 'swap', 'active': [j, j + 1], 'array': array});
  //   step({'action': 'done', 'active': [], 'array': array});
  print(array.join(' '));
}
