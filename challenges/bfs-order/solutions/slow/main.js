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

// The queue keeps every node ever queued: it is the visited order, and queue.slice(head) the frontier.
const matrix = neighbours.map((adjacent) => {
  const row = new Array(n).fill(false);
  for (const v of adjacent) row[v] = true;
  return row;
});
const seen = new Array(n).fill(false);
seen[source] = true;
const queue = [source];
let head = 0;
step({ current: null, visited: queue, frontier: queue.slice(head) });
// Every neighbour looked at is counted, for the growth grade (@count).
let checks = 0;
while (head < queue.length) {
  const node = queue[head++];
  // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
  for (let neighbour = 0; neighbour < n; neighbour++) {
    checks++;
    if (matrix[node][neighbour] && !seen[neighbour]) {
      seen[neighbour] = true;
      queue.push(neighbour);
    }
  }
  step({ current: node, visited: queue, frontier: queue.slice(head) });
}
console.log("@count " + checks);
console.log(queue.join(" "));
