const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0).map(Number);
const n = data[0];
const values = data.slice(1, 1 + n).sort((a, b) => a - b);
const used = new Array(n).fill(false);
const prefix = [];
const lines = [];

function extend() {
  if (prefix.length === n) {
    lines.push(prefix.join(' '));
    return;
  }
  for (let k = 0; k < n; k++) {
    // Mistake: every position is tried, so equal values give the same permutation several times.
    if (used[k]) continue;
    used[k] = true;
    prefix.push(values[k]);
    extend();
    prefix.pop();
    used[k] = false;
  }
}

extend();
console.log(lines.join('\n'));
