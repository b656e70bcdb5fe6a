const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0);
const n = Number(data[0]);
const target = Number(data[1]);
const values = data.slice(2, 2 + n).map(Number);

function solve() {
  const firstPosition = new Map();
  for (let j = 0; j < n; j++) {
    const partner = firstPosition.get(target - values[j]);
    if (partner !== undefined) return `${partner + 1} ${j + 1}`;
    // Keep the first position of each value: the smallest i wins.
    if (!firstPosition.has(values[j])) firstPosition.set(values[j], j);
  }
  return '0 0';
}

console.log(solve());
