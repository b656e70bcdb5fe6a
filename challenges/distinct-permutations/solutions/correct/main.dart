import 'dart:convert';
import 'dart:io';

late List<int> values;
late List<bool> used;
final prefix = <int>[];
final out = StringBuffer();

void extend() {
  if (prefix.length == values.length) {
    out.writeln(prefix.join(' '));
    return;
  }
  for (var k = 0; k < values.length; k++) {
    // Equal values are tried in sorted order only, so each distinct value is tried once here.
    if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue;
    used[k] = true;
    prefix.add(values[k]);
    extend();
    prefix.removeLast();
    used[k] = false;
  }
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = data[0];
  values = data.sublist(1, 1 + n)..sort();
  used = List.filled(n, false);
  extend();
  stdout.write(out);
}
