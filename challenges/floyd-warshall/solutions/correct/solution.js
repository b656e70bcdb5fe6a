const { Recorder } = require('dsa');

const UNREACHABLE = 1e18;

/**
 * @param {number} n
 * @param {number[][]} edges
 * @return {number[][]}
 */
function allPairs(n, edges) {
  const rec = new Recorder();
  const dist = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 0 : UNREACHABLE)));
  // The steps show a pair with no path known yet as null.
  const table = () => dist.map((row) => row.map((d) => (d === UNREACHABLE ? null : d)));
  for (const [u, v, w] of edges) dist[u][v] = Math.min(dist[u][v], w);
  rec.step('init', { table: table(), cell: null, reads: [] }, "0 on the diagonal, each edge's weight");
  for (let k = 0; k < n; k++) { // paths whose inner nodes are all below k + 1
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (dist[i][k] === UNREACHABLE || dist[k][j] === UNREACHABLE) continue;
        const through = dist[i][k] + dist[k][j];
        if (through < dist[i][j]) {
          dist[i][j] = through;
          rec.step('relax', { table: table(), cell: [i, j], reads: [[i, k], [k, j]] }, `${i} to ${j} through ${k}: ${through}`);
        }
      }
    }
  }
  rec.step('done', { table: table(), cell: null, reads: [] }, "Every pair's shortest distance");
  return dist;
}
