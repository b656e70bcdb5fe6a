import 'dart:convert';
import 'dart:io';

String solve(List<int> values, int target) {
  final firstPosition = <int, int>{};
  for (var j = 0; j < values.length; j++) {
    final partner = firstPosition[target - values[j]];
    if (partner != null) return '${partner + 1} ${j + 1}';
    // Keep the first position of each value: the smallest i wins.
    firstPosition.putIfAbsent(values[j], () => j);
  }
  return '0 0';
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).toList();
  final n = int.parse(data[0]);
  final target = int.parse(data[1]);
  final values = [for (var k = 0; k < n; k++) int.parse(data[2 + k])];
  print(solve(values, target));
}
