import 'package:dsa/dsa.dart';

List<int> bfsOrder(List<List<int>> graph, int source) {
  final neighbours = [for (final adjacent in graph) List<int>.of(adjacent)..sort()];
  final rec = Recorder<int>();
  // Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
  final seen = List<bool>.filled(graph.length, false);
  final queue = [source];
  rec.discover(source);
  final order = <int>[];
  var checks = 0;
  for (var head = 0; head < queue.length; head++) {
    final node = queue[head];
    if (seen[node]) continue;
    seen[node] = true;
    rec.visit(node);
    order.add(node);
    for (final neighbour in neighbours[node]) {
      checks++;
      if (!seen[neighbour]) {
        queue.add(neighbour);
        rec.discover(neighbour);
      }
    }
  }
  print('@count $checks');
  return order;
}
