/**
 * @param {number} n
 * @param {number[][]} edges
 * @param {number} source
 * @return {number[]}
 */
function shortestDistances(n, edges, source) {
  const adjacency = Array.from({ length: n }, () => []);
  for (const [u, v, w] of edges) adjacency[u].push([v, w]);
  const heap = []; // [distance, node] pairs, the smallest distance on top
  const push = (item) => {
    heap.push(item);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (heap[parent][0] <= heap[i][0]) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1, right = left + 1;
        let smallest = i;
        if (left < heap.length && heap[left][0] < heap[smallest][0]) smallest = left;
        if (right < heap.length && heap[right][0] < heap[smallest][0]) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
        i = smallest;
      }
    }
    return top;
  };
  const dist = new Array(n).fill(-1);
  dist[source] = 0;
  push([0, source]);
  while (heap.length > 0) {
    const [d, u] = pop();
    for (const [v, w] of adjacency[u]) {
      if (dist[v] === -1) {
        // Wrong on purpose: a node's distance is fixed when it is first seen, not when it is popped.
        dist[v] = d + w;
        push([d + w, v]);
      }
    }
  }
  return dist;
}
