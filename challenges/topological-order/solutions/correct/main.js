const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0).map(Number);
const [n, m] = data;
const successors = Array.from({ length: n + 1 }, () => []);
const inDegree = new Array(n + 1).fill(0);
for (let k = 0; k < m; k++) {
  const u = data[2 + 2 * k];
  const v = data[3 + 2 * k];
  successors[u].push(v);
  inDegree[v]++;
}
const order = [];
for (let node = 1; node <= n; node++) if (inDegree[node] === 0) order.push(node);
// order doubles as the queue: the nodes after index `head` are ready but not yet expanded.
for (let head = 0; head < order.length; head++) {
  for (const successor of successors[order[head]]) {
    if (--inDegree[successor] === 0) order.push(successor);
  }
}
// Tasks on or behind a cycle never reach in-degree 0.
console.log(order.length === n ? order.join(' ') : 'IMPOSSIBLE');
