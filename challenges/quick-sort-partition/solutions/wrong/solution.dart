import 'package:dsa/dsa.dart';

List<int> quickSort(List<int> items) {
  final rec = Recorder<int>();
  final array = [...items];
  void step(String action, List<int> active) => rec.step(action, {'active': active, 'array': array});

  void sort(int lo, int hi) {
    if (lo >= hi) return;
    final pivot = array[hi];
    step('pivot', [hi]);
    var i = lo;
    for (var j = lo; j < hi; j++) {
      step('compare', [j, hi]);
      // Wrong on purpose: items equal to the pivot stay in the right part.
      if (array[j] < pivot) {
        if (i != j) {
          final t = array[i];
          array[i] = array[j];
          array[j] = t;
          step('swap', [i, j]);
        }
        i++;
      }
    }
    final t = array[i];
    array[i] = array[hi];
    array[hi] = t;
    step('place', [i]);
    sort(lo, i - 1);
    sort(i + 1, hi);
  }

  sort(0, array.length - 1);
  step('done', []);
  return array;
}
