import 'dart:convert';
import 'dart:io';

final out = StringBuffer();

// One step line per item looked at.
void probe(int index) => out.writeln('@step {"action": "probe", "index": $index}');

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((t) => t.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  final items = numbers.sublist(1, 1 + n);
  final target = numbers[1 + n];
  var answer = -1;
  var low = 0, high = n - 1;
  while (low <= high) {
    final middle = (low + high) ~/ 2;
    probe(middle);
    if (items[middle] == target) {
      answer = middle;
      break;
    }
    if (items[middle] < target) {
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  out.writeln(answer);
  stdout.write(out);
}
