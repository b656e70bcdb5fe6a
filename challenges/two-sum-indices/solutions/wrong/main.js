const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0);
const n = Number(data[0]);
const target = Number(data[1]);
const values = data.slice(2, 2 + n).map(Number);

function solve() {
  const firstPosition = new Map();
  for (let j = 0; j < n; j++) {
    // Mistake: the value is stored before the look-up, so it can pair with itself.
    if (!firstPosition.has(values[j])) firstPosition.set(values[j], j);
    const partner = firstPosition.get(target - values[j]);
    if (partner !== undefined) return `${partner + 1} ${j + 1}`;
  }
  return '0 0';
}

console.log(solve());
