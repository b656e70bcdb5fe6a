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
const neighbours = Array.from({ length: n }, () => []);
for (let k = 0; k < m; k++) {
  const u = numbers[3 + 2 * k];
  const v = numbers[4 + 2 * k];
  neighbours[u].push(v);
  neighbours[v].push(u);
}
for (const adjacent of neighbours) adjacent.sort((a, b) => a - b);

// Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
const seen = new Array(n).fill(false);
const visited = [];
const queue = [source];
let head = 0;
step({ current: null, visited: [source], frontier: queue.slice(head) });
while (head < queue.length) {
  const node = queue[head++];
  if (seen[node]) continue;
  seen[node] = true;
  visited.push(node);
  for (const neighbour of neighbours[node]) {
    if (!seen[neighbour]) queue.push(neighbour);
  }
  step({ current: node, visited: visited, frontier: queue.slice(head) });
}
console.log(visited.join(" "));
