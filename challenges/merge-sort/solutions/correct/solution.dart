import 'package:dsa/dsa.dart';

List<int> mergeSort(List<int> items) => sortPart(items, Recorder<int>());

List<int> sortPart(List<int> items, Recorder<int> rec) {
  if (items.length < 2) return items;
  final middle = items.length ~/ 2;
  final left = sortPart(items.sublist(0, middle), rec);
  final right = sortPart(items.sublist(middle), rec);
  final merged = <int>[];
  var i = 0, j = 0;
  while (i < left.length && j < right.length) {
    rec.step('compare', {'values': [left[i], right[j]]});
    if (left[i] <= right[j]) {
      merged.add(left[i++]);
    } else {
      merged.add(right[j++]);
    }
  }
  return merged + left.sublist(i) + right.sublist(j);
}
