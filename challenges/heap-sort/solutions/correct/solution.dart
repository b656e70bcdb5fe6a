import 'package:dsa/dsa.dart';

List<int> heapSort(List<int> items) {
  final rec = Recorder<int>();
  final array = [...items];
  final ids = [for (var k = 0; k < array.length; k++) k]; // item k of the input has id k; a swap swaps ids too
  void record(String action, int size, List<int> active, String caption) {
    rec.step(action, {'heap': array.sublist(0, size), 'ids': ids.sublist(0, size), 'active': active}, caption);
  }

  void swap(int i, int j) {
    final value = array[i], id = ids[i];
    array[i] = array[j];
    ids[i] = ids[j];
    array[j] = value;
    ids[j] = id;
  }

  void siftDown(int parent, int size) {
    while (true) {
      final left = 2 * parent + 1, right = left + 1;
      var larger = left; // the larger child; the left one when they are equal
      if (right < size && array[right] > array[left]) larger = right;
      if (larger >= size || array[larger] <= array[parent]) return;
      swap(parent, larger);
      record('swap', size, [parent, larger], 'Sift down: swap ${array[larger]} with its larger child ${array[parent]}');
      parent = larger;
    }
  }

  final n = array.length;
  for (var parent = n ~/ 2 - 1; parent >= 0; parent--) {
    siftDown(parent, n);
  }
  for (var end = n - 1; end > 0; end--) {
    swap(0, end);
    record('pop', end, [0], 'Move the largest, ${array[end]}, to index $end; ${array[0]} takes the root');
    siftDown(0, end);
  }
  record('done', 0, [], 'Done: the heap is empty and the items are sorted');
  return array;
}
