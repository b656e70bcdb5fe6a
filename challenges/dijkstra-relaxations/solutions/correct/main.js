const fs = require("fs");

// Prints one step line: "@step " and the fields as one JSON object (null prints as null).
function step(fields) {
  console.log("@step " + JSON.stringify(fields));
}

const numbers = fs
  .readFileSync(0, "utf8")
  .split(/\s+/)
  .filter((token) => token.length > 0)
  .map(Number);
const [n, m, source] = numbers;
const outgoing = Array.from({ length: n }, () => []);
for (let k = 0; k < m; k++) {
  outgoing[numbers[3 + 3 * k]].push([numbers[4 + 3 * k], numbers[5 + 3 * k]]);
}
for (const edges of outgoing) edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);

const dist = new Array(n).fill(null);
const settled = new Array(n).fill(false);
dist[source] = 0;
while (true) {
  let node = null;
  for (let v = 0; v < n; v++) {
    if (!settled[v] && dist[v] !== null && (node === null || dist[v] < dist[node])) node = v;
  }
  if (node === null) break;
  settled[node] = true;
  step({ action: "settle", current: node, dist: dist });
  for (const [to, weight] of outgoing[node]) {
    if (settled[to]) continue;
    const through = dist[node] + weight;
    const relaxed = dist[to] === null || through < dist[to];
    if (relaxed) dist[to] = through;
    step({ action: "relax", current: node, dist: dist, edge: [node, to, weight], relaxed: relaxed });
  }
}
console.log(dist.map((d) => (d === null ? -1 : d)).join(" "));
