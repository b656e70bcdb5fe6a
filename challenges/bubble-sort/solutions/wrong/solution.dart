import 'package:dsa/dsa.dart';

List<int> bubbleSort(List<int> items) {
  final rec = Recorder(items);
  final n = items.length;
  for (var donePasses = 0; donePasses < n - 1; donePasses++) {
    var swapped = false;
    // Wrong on purpose: every pass runs to the end, over items already bubbled into place.
    for (var j = 0; j < n - 1; j++) {
      rec.compare(j, j + 1);
      if (rec[j] > rec[j + 1]) {
        rec.swap(j, j + 1);
        swapped = true;
      }
    }
    if (!swapped) break;
  }
  rec.done();
  return rec.array;
}
