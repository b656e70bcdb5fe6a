import 'package:dsa/dsa.dart';

List<int> insertionSort(List<int> items) {
  final rec = Recorder(items);
  for (var i = 1; i < items.length; i++) {
    for (var j = i; j > 0; j--) {
      rec.compare(j - 1, j);
      if (rec[j - 1] < rec[j]) break; // Wrong on purpose: equal items swap too.
      rec.swap(j - 1, j);
    }
  }
  rec.done();
  return rec.array;
}
