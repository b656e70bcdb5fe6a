import 'package:dsa/dsa.dart';

// Insertion sort: right answers, but about n²/4 comparisons on random input.
List<int> mergeSort(List<int> items) {
  final rec = Recorder<int>();
  final sorted = List<int>.of(items);
  for (var i = 1; i < sorted.length; i++) {
    for (var j = i; j > 0; j--) {
      rec.step('compare', {'values': [sorted[j - 1], sorted[j]]});
      if (sorted[j - 1] <= sorted[j]) break;
      final held = sorted[j - 1];
      sorted[j - 1] = sorted[j];
      sorted[j] = held;
    }
  }
  return sorted;
}
