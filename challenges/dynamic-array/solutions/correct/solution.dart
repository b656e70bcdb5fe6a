import 'package:dsa/dsa.dart';

List<int> pushAll(List<int> values) {
  final rec = Recorder<int>();
  var capacity = 1;
  var size = 0;
  var buffer = List<int>.filled(capacity, 0);
  final capacities = <int>[];
  for (final value in values) {
    if (size == capacity) {
      capacity = capacity * 2;
      final bigger = List<int>.filled(capacity, 0);
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
