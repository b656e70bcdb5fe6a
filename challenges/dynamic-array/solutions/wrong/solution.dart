import 'package:dsa/dsa.dart';

// Off by one: grows only when the array holds one item more than its capacity (a spare slot hides the overflow).
List<int> pushAll(List<int> values) {
  final rec = Recorder<int>();
  var capacity = 1;
  var size = 0;
  var buffer = List<int>.filled(capacity + 1, 0);
  final capacities = <int>[];
  for (final value in values) {
    if (size > capacity) {
      capacity = capacity * 2;
      final bigger = List<int>.filled(capacity + 1, 0);
      for (var i = 0; i < size; i++) {
        bigger[i] = buffer[i];
        rec.step('copy', {'index': i});
      }
      buffer = bigger;
    }
    buffer[size++] = value;
    capacities.add(capacity);
  }
  return capacities;
}
