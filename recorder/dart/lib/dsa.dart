/// dsa-run's step recorder: an algorithm records what it does, one `@step {json}` line per step.
///
/// ```dart
/// import 'package:dsa/dsa.dart';
///
/// final rec = Recorder([5, 2, 4]);
/// rec.compare(0, 1);                          // {"action":"compare","active":[0,1],...}
/// rec.swap(0, 1, caption: '2 is smaller: swap');
/// rec.done();
/// ```
///
/// The recorder keeps the elements with stable ids (so duplicates animate correctly), writes every
/// step with `print` (so a function challenge's driver routes it as it routes the learner's prints),
/// and makes up a caption when none is given. docs/challenges.md ("Step recorder") has the whole
/// API; the step lines are the ones the steps checker reads.
library dsa;

import 'dart:convert';

part 'src/shapes.dart';

/// The steps a process may write; the next call throws a [RecorderError].
const int maxSteps = 100000;

int _stepsWritten = 0;

/// A call the recorder refuses: too many steps, or a value JSON cannot hold (NaN, Infinity).
class RecorderError extends Error {
  final String message;
  RecorderError(this.message);
  @override
  String toString() => 'RecorderError: $message';
}

Object _checked(Object value) {
  if (value is double && !value.isFinite) {
    throw RecorderError(
        'the recorder cannot write ${value.isNaN ? 'NaN' : 'Infinity'}: JSON has no NaN or Infinity');
  }
  if (value is! int && value is! double && value is! String) {
    throw RecorderError('the recorder keeps integers, floating-point numbers or strings, not ${value.runtimeType}');
  }
  return value;
}

String _json(Object? value) {
  if (value is double) {
    _checked(value);
    return value.toString();
  }
  return jsonEncode(value);
}

/// Records the steps of an algorithm over its elements, or of a search or a graph walk when
/// created with no elements.
class Recorder<T extends Object> {
  final List<T> _array;
  final List<int> _ids;
  int _nextId;
  final Set<int> _sorted = {};
  final List<int> _visited = [];
  final List<int> _frontier = [];
  int? _current;

  /// Copies [items] (ints, doubles or strings); element k gets the id k.
  Recorder([List<T> items = const []])
      : _array = [for (final item in items) _checked(item) as T],
        _ids = [for (var k = 0; k < items.length; k++) k],
        _nextId = items.length;

  /// The current values, the recorder's own list: change them only through [swap] and [overwrite].
  List<T> get array => _array;

  /// The current elements' ids, in the array's order.
  List<int> get ids => List.unmodifiable(_ids);

  int get length => _array.length;

  T operator [](int index) => _array[index];

  /// Nodes visited or discovered, in order.
  List<int> get visited => List.unmodifiable(_visited);

  /// Nodes discovered and not yet visited, oldest first.
  List<int> get frontier => List.unmodifiable(_frontier);

  void compare(int i, int j, {String? caption}) {
    _arrayStep('compare', [i, j],
        caption ?? 'Compare index $i (${_json(_array[i])}) with index $j (${_json(_array[j])})');
  }

  void swap(int i, int j, {String? caption}) {
    final value = _array[i];
    _array[i] = _array[j];
    _array[j] = value;
    final id = _ids[i];
    _ids[i] = _ids[j];
    _ids[j] = id;
    _arrayStep('swap', [i, j], caption ?? 'Swap index $i and index $j');
  }

  void overwrite(int i, T value, {String? caption}) {
    _array[i] = _checked(value) as T;
    _ids[i] = _nextId++;
    _arrayStep('overwrite', [i], caption ?? 'Write ${_json(value)} at index $i');
  }

  /// Marks index [i] sorted; writes no step of its own (the next step shows it).
  void markSorted(int i) {
    RangeError.checkValidIndex(i, _array);
    _sorted.add(i);
  }

  void done({String? caption}) {
    for (var i = 0; i < _array.length; i++) {
      _sorted.add(i);
    }
    _arrayStep('done', [], caption ?? 'Done');
  }

  void _arrayStep(String action, List<int> active, String caption) {
    final sorted = _sorted.toList()..sort();
    _write('"action":${jsonEncode(action)},"active":${jsonEncode(active)},'
        '"array":[${_array.map(_json).join(',')}],"ids":${jsonEncode(_ids)},'
        '"sorted":${jsonEncode(sorted)},"caption":${jsonEncode(caption)}');
  }

  /// One probe of a search over the window [low]..[high]; [mid] is null for an empty window.
  void probe(int low, int? mid, int high, bool found, {String? caption}) {
    caption ??= mid == null
        ? 'Empty window: low $low, high $high'
        : found
            ? 'Found at index $mid'
            : 'Probe index $mid: low $low, high $high';
    _write('"action":"probe","low":$low,"high":$high,"mid":${mid ?? 'null'},"found":$found,'
        '"caption":${jsonEncode(caption)}');
  }

  /// Takes [node] off the frontier (its first place there), marks it visited, makes it current.
  void visit(int node, {String? caption}) {
    _frontier.remove(node);
    if (!_visited.contains(node)) _visited.add(node);
    _current = node;
    _graphStep('visit', caption ?? 'Visit node $node');
  }

  /// Marks [node] visited and puts it at the end of the frontier.
  void discover(int node, {String? caption}) {
    if (!_visited.contains(node)) _visited.add(node);
    _frontier.add(node);
    _graphStep('discover', caption ?? 'Discover node $node');
  }

  void _graphStep(String action, String caption) {
    _write('"action":"$action","current":${_current ?? 'null'},"visited":${jsonEncode(_visited)},'
        '"frontier":${jsonEncode(_frontier)},"caption":${jsonEncode(caption)}');
  }

  /// Any other step: {"action": [action], the [fields]..., "caption": ...}.
  void step(String action, [Map<String, Object?> fields = const {}, String? caption]) {
    final parts = ['"action":${jsonEncode(action)}'];
    fields.forEach((key, value) {
      if (key != 'action' && key != 'caption') parts.add('${jsonEncode(key)}:${_encodeField(value)}');
    });
    parts.add('"caption":${jsonEncode(caption ?? action)}');
    _write(parts.join(','));
  }

  String _encodeField(Object? value) =>
      jsonEncode(value, toEncodable: (Object? item) => throw RecorderError('cannot write $item as JSON'));

  void _write(String body) => _writeStep(body);
}

void _writeStep(String body) {
  if (_stepsWritten >= maxSteps) {
    throw RecorderError('too many steps: the recorder keeps at most $maxSteps');
  }
  _stepsWritten++;
  print('@step {$body}');
}
