import 'package:dsa/dsa.dart';

int binarySearch(List<int> items, int target) {
  final rec = Recorder<int>();
  var low = 0, high = items.length - 1;
  // Wrong on purpose: stops when low == high, before probing the last candidate.
  while (low < high) {
    final mid = low + (high - low) ~/ 2;
    rec.probe(low, mid, high, items[mid] == target);
    if (items[mid] == target) return mid;
    if (items[mid] < target) {
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  rec.probe(low, null, high, false);
  return -1;
}
