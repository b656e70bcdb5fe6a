import 'dart:convert';
import 'dart:io';

final out = StringBuffer();

// One step line per item looked at.
void probe(int index) => out.writeln('@step {"action": "probe", "index": $index}');

Future<void> main() async {
  // A scan from the start: right answers, about n probes.
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((t) => t.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  final items = numbers.sublist(1, 1 + n);
  final target = numbers[1 + n];
  var answer = -1;
  for (var index = 0; index < n; index++) {
    probe(index);
    if (items[index] == target) {
      answer = index;
      break;
    }
    if (items[index] > target) break;
  }
  out.writeln(answer);
  stdout.write(out);
}
