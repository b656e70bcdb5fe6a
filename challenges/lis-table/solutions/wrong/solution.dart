import 'package:dsa/dsa.dart';

List<int> lisTable(List<int> items) {
  final rec = Recorder<int>();
  final best = List<int?>.filled(items.length, null); // best[i]: the longest increasing run ending at item i
  for (var i = 0; i < items.length; i++) {
    final reads = <List<int>>[];
    var longest = 0;
    for (var j = 0; j < i; j++) {
      if (items[j] <= items[i]) { // wrong: an equal item extends a run
        reads.add([j]);
        if (best[j]! > longest) longest = best[j]!;
      }
    }
    best[i] = longest + 1;
    rec.step('fill', {'table': best, 'cell': [i], 'reads': reads}, 'best[$i] = ${best[i]}');
  }
  return [for (final cell in best) cell!];
}
