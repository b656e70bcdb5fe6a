import 'package:dsa/dsa.dart';

List<int> bfsOrder(List<List<int>> graph, int source) {
  final neighbours = [for (final adjacent in graph) List<int>.of(adjacent)..sort()];
  final rec = Recorder<int>();
  final seen = List<bool>.filled(graph.length, false);
  seen[source] = true;
  final queue = [source];
  rec.discover(source);
  // Every neighbour looked at is counted, for the growth grade (@count).
  var checks = 0;
  for (var head = 0; head < queue.length; head++) {
    final node = queue[head];
    rec.visit(node);
    for (final neighbour in neighbours[node]) {
      checks++;
      if (!seen[neighbour]) {
        seen[neighbour] = true;
        queue.add(neighbour);
        rec.discover(neighbour);
      }
    }
  }
  print('@count $checks');
  return queue;
}
