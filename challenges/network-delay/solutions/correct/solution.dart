List<int> shortestDistances(int n, List<List<int>> edges, int source) {
  final adjacency = List.generate(n, (_) => <List<int>>[]);
  for (final e in edges) adjacency[e[0]].add([e[1], e[2]]);
  final heap = <List<int>>[]; // [distance, node] pairs, the smallest distance on top
  void swap(int i, int j) {
    final t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  }

  void push(List<int> entry) {
    heap.add(entry);
    for (var i = heap.length - 1; i > 0 && heap[i][0] < heap[(i - 1) >> 1][0]; i = (i - 1) >> 1) {
      swap(i, (i - 1) >> 1);
    }
  }

  List<int> pop() {
    final top = heap[0], last = heap.removeLast();
    if (heap.isNotEmpty) {
      heap[0] = last;
      var i = 0;
      while (true) {
        final left = 2 * i + 1, right = left + 1;
        var smallest = i;
        if (left < heap.length && heap[left][0] < heap[smallest][0]) smallest = left;
        if (right < heap.length && heap[right][0] < heap[smallest][0]) smallest = right;
        if (smallest == i) break;
        swap(i, smallest);
        i = smallest;
      }
    }
    return top;
  }

  final dist = List<int>.filled(n, -1);
  push([0, source]);
  while (heap.isNotEmpty) {
    final top = pop();
    final d = top[0], u = top[1];
    if (dist[u] != -1) continue; // settled already, by a shorter path
    dist[u] = d;
    for (final link in adjacency[u]) {
      if (dist[link[0]] == -1) push([d + link[1], link[0]]);
    }
  }
  return dist;
}
