import 'dart:collection';

import 'package:dsa/dsa.dart';

const stepped = 50; // indices whose operations record steps

List<int> windowMax(List<int> items, int k) {
  final rec = Recorder<int>();
  final window = ListQueue<int>(); // indices, their items decreasing from the front
  final answers = <int>[];
  void record(String action, int index, String caption) {
    final deque = window.toList();
    rec.step(action, {
      'deque': deque,
      'ids': deque,
      'moved': {'id': index, 'value': index}
    }, caption);
  }

  for (var i = 0; i < items.length; i++) {
    if (window.isNotEmpty && window.first == i - k) {
      final left = window.removeFirst();
      if (i < stepped) record('pop_front', left, 'Index $left has left the window: drop it from the front');
    }
    while (window.isNotEmpty && items[window.last] <= items[i]) {
      final smaller = window.removeLast();
      if (i < stepped) {
        record('pop_back', smaller, '${items[smaller]} at index $smaller is not larger than ${items[i]}: drop it');
      }
    }
    window.addLast(i);
    if (i < stepped) record('push_back', i, 'Push index $i (${items[i]}) at the back');
    if (i >= k - 1) answers.add(items[window.first]);
  }
  return answers;
}
