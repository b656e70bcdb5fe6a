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

const dist = new Array(n).fill(null); // null: not reached yet
dist[source] = 0;
// TODO: Dijkstra from source. Report each node settled and each edge relaxed:
//   step({ action: "settle", current: node, dist: dist });
//   step({ action: "relax", current: node, dist: dist, edge: [node, to, weight], relaxed: relaxed });
console.log(dist.map((d) => (d === null ? -1 : d)).join(" "));
