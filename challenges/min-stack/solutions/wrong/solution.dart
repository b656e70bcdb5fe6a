import 'package:dsa/dsa.dart';

const stepped = 50; // operations that record steps

List<int> minStack(List<String> ops, List<int> values) {
  final rec = Recorder<int>();
  final stack = <int>[];
  final ids = <int>[];
  final mins = <int>[]; // mins[k]: the minimum of stack[0..k]
  final answers = <int>[];
  var nextId = 0;
  for (var i = 0; i < ops.length; i++) {
    final op = ops[i];
    if (op == 'push') {
      final value = values[i];
      if (mins.isEmpty || value < mins.last) mins.add(value); // wrong: a repeated minimum gets no record
      stack.add(value);
      ids.add(nextId++);
      if (i < stepped) _record(rec, 'push', stack, ids, ids.last, value, mins);
    } else if (op == 'pop') {
      final value = stack.removeLast();
      final id = ids.removeLast();
      if (value == mins.last) mins.removeLast();
      if (i < stepped) _record(rec, 'pop', stack, ids, id, value, mins);
    } else if (op == 'top') {
      answers.add(stack.last);
    } else {
      answers.add(mins.last);
    }
  }
  return answers;
}

void _record(Recorder<int> rec, String action, List<int> stack, List<int> ids, int movedId, int movedValue,
    List<int> mins) {
  final int? minimum = mins.isEmpty ? null : mins.last;
  final verb = action == 'push' ? 'Push' : 'Pop';
  rec.step(
      action,
      {
        'stack': stack,
        'ids': ids,
        'moved': {'id': movedId, 'value': movedValue},
        'min': minimum,
      },
      '$verb $movedValue: ${minimum == null ? 'the stack is empty' : 'the minimum is $minimum'}');
}
