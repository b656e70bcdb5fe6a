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
    // Equal values are tried in sorted order only, so each distinct value is tried once here.
    if (used[k] || (k > 0 && values[k] === values[k - 1] && !used[k - 1])) continue;
    used[k] = true;
    prefix.push(values[k]);
    extend();
    prefix.pop();
    used[k] = false;
  }
}

extend();
console.log(lines.join('\n'));
