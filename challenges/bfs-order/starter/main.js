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

const order = [];
// TODO: breadth-first search from source. Report the start, then each node taken from the queue:
//   step({ current: null, visited: [source], frontier: [source] });
//   step({ current: node, visited: visited, frontier: queue });   (the queue, front first)
console.log(order.join(" "));
