import 'dart:convert';
import 'dart:io';
import 'dart:math';

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = data[0];
  final intervals = [
    for (var k = 0; k < n; k++) [data[1 + 2 * k], data[2 + 2 * k]]
  ];
  intervals.sort((a, b) => a[0] != b[0] ? a[0].compareTo(b[0]) : a[1].compareTo(b[1]));
  final merged = <List<int>>[];
  for (final interval in intervals) {
    if (merged.isNotEmpty && interval[0] <= merged.last[1]) {
      final current = merged.last;
      current[1] = max(current[1], interval[1]);
    } else {
      merged.add([interval[0], interval[1]]);
    }
  }
  stdout.write(merged.map((interval) => '${interval[0]} ${interval[1]}\n').join());
}
