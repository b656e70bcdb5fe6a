import 'package:dsa/dsa.dart';

const base = 256, modulus = 1000000007;
const stepsUpTo = 100; // a longer text records only the done step

List<int> findAll(String text, String pattern) {
  final rec = Recorder<int>();
  final recording = text.length <= stepsUpTo;
  final n = text.length, m = pattern.length;
  final found = <int>[];
  var patternHash = 0, windowHash = 0;
  void step(String action, int? offset, int? index, int? hash) => rec.step(action, {
        'text': text,
        'pattern': pattern,
        'offset': offset,
        'index': index,
        'found': [...found],
        'window_hash': hash,
        'pattern_hash': patternHash,
      });
  // Dart's % is never negative for a positive modulus.
  for (final c in pattern.codeUnits) {
    patternHash = (patternHash * base + c) % modulus;
  }
  var high = 1; // the weight of a window's first character: base^(m-1)
  for (var i = 1; i < m; i++) {
    high = high * base % modulus;
  }
  for (var offset = 0; offset + m <= n; offset++) {
    if (offset == 0) {
      for (var i = 0; i < m; i++) {
        windowHash = (windowHash * base + text.codeUnitAt(i)) % modulus;
      }
      if (recording) step('hash', 0, null, windowHash);
    } else {
      windowHash = ((windowHash - text.codeUnitAt(offset - 1) * high) * base + text.codeUnitAt(offset + m - 1)) % modulus;
      if (recording) step('roll', offset, null, windowHash);
    }
    if (windowHash != patternHash) continue;
    var index = 0; // a hash hit: the characters decide
    for (; index < m; index++) {
      if (recording) step('compare', offset, index, windowHash);
      if (text.codeUnitAt(offset + index) != pattern.codeUnitAt(index)) break;
    }
    if (index == m) found.add(offset);
  }
  step('done', null, null, null);
  return found;
}
