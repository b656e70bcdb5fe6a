const UNREACHABLE = 1e18;

/**
 * @param {number} n
 * @param {number[][]} edges
 * @param {number} source
 * @return {number[]}
 */
function shortestFrom(n, edges, source) {
  const dist = new Array(n).fill(UNREACHABLE);
  dist[source] = 0;
  for (let round = 0; round < n - 1; round++) { // a shortest path has at most n - 1 edges
    let changed = false;
    for (const [u, v, w] of edges) {
      if (dist[u] !== UNREACHABLE && dist[u] + w < dist[v]) {
        dist[v] = dist[u] + w;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (const [u, v, w] of edges) {
    // Still relaxing after n - 1 rounds: a negative cycle is reachable.
    if (dist[u] !== UNREACHABLE && dist[u] + w < dist[v]) return [];
  }
  return dist;
}
