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
  for (var donePasses = 0; donePasses < n - 1; donePasses++) {
    var swapped = false;
    for (var j = 0; j < n - 1 - donePasses; j++) {
      step({'action': 'compare', 'active': [j, j + 1], 'array': array});
      if (array[j] > array[j + 1]) {
        final larger = array[j];
        array[j] = array[j + 1];
        array[j + 1] = larger;
        swapped = true;
        step({'action': 'swap', 'active': [j, j + 1], 'array': array});
      }
    }
    if (!swapped) break;
  }
  step({'action': 'done', 'active': [], 'array': array});
  print(array.join(' '));
}
