import 'dart:convert';
import 'dart:io';

final out = StringBuffer();

// One step line per comparison of two items.
void compare() => out.writeln('@step {"action": "compare"}');

List<int> mergeSort(List<int> items) {
  if (items.length < 2) return items;
  final middle = items.length ~/ 2;
  final left = mergeSort(items.sublist(0, middle));
  final right = mergeSort(items.sublist(middle));
  final merged = <int>[];
  var i = 0, j = 0;
  while (i < left.length && j < right.length) {
    compare();
    merged.add(left[i] <= right[j] ? left[i++] : right[j++]);
  }
  return merged..addAll(left.sublist(i))..addAll(right.sublist(j));
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((t) => t.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  out.writeln(mergeSort(numbers.sublist(1, 1 + n)).join(' '));
  stdout.write(out);
}
