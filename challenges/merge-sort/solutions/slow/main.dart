import 'dart:convert';
import 'dart:io';

final out = StringBuffer();

// One step line per comparison of two items.
void compare() => out.writeln('@step {"action": "compare"}');

Future<void> main() async {
  // Insertion sort: right answers, but about n²/4 comparisons on random input.
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((t) => t.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  final items = numbers.sublist(1, 1 + n);
  for (var i = 1; i < n; i++) {
    for (var j = i; j > 0; j--) {
      compare();
      if (items[j - 1] <= items[j]) break;
      final held = items[j - 1];
      items[j - 1] = items[j];
      items[j] = held;
    }
  }
  out.writeln(items.join(' '));
  stdout.write(out);
}
