import 'package:dsa/dsa.dart';

// A scan from the start: right answers, about n probes.
int binarySearch(List<int> items, int target) {
  final rec = Recorder<int>();
  for (var index = 0; index < items.length; index++) {
    rec.probe(index, index, items.length - 1, items[index] == target);
    if (items[index] == target) return index;
    if (items[index] > target) break;
  }
  return -1;
}
