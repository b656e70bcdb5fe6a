import 'package:dsa/dsa.dart';

List<int> bfsOrder(List<List<int>> graph, int source) {
  final neighbourSets = [for (final adjacent in graph) adjacent.toSet()];
  final rec = Recorder<int>();
  final seen = List<bool>.filled(graph.length, false);
  seen[source] = true;
  final queue = [source];
  rec.discover(source);
  var checks = 0;
  for (var head = 0; head < queue.length; head++) {
    final node = queue[head];
    rec.visit(node);
    // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
    for (var neighbour = 0; neighbour < graph.length; neighbour++) {
      checks++;
      if (neighbourSets[node].contains(neighbour) && !seen[neighbour]) {
        seen[neighbour] = true;
        queue.add(neighbour);
        rec.discover(neighbour);
      }
    }
  }
  print('@count $checks');
  return queue;
}
