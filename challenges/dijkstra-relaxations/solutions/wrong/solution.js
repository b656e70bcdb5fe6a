const { Recorder } = require('dsa');

/**
 * @param {number} n
 * @param {number[][]} edges
 * @param {number} source
 * @return {number[]}
 */
function dijkstra(n, edges, source) {
  const rec = new Recorder();
  const outgoing = Array.from({ length: n }, () => []);
  for (const [u, v, w] of edges) outgoing[u].push([v, w]);
  for (const links of outgoing) links.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const dist = new Array(n).fill(null); // null: not reached yet
  const settled = new Array(n).fill(false);
  dist[source] = 0;
  for (;;) {
    let node = -1;
    for (let v = 0; v < n; v++) {
      if (!settled[v] && dist[v] !== null && (node < 0 || dist[v] < dist[node])) node = v;
    }
    if (node < 0) break;
    settled[node] = true;
    rec.step('settle', { current: node, dist });
    for (const [to, weight] of outgoing[node]) {
      // Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too.
      const through = dist[node] + weight;
      const relaxed = dist[to] === null || through < dist[to];
      if (relaxed) dist[to] = through;
      rec.step('relax', { current: node, dist, edge: [node, to, weight], relaxed });
    }
  }
  return dist.map((d) => (d === null ? -1 : d));
}
