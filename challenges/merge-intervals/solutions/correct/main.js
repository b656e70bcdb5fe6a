const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0).map(Number);
const n = data[0];
const intervals = [];
for (let k = 0; k < n; k++) intervals.push([data[1 + 2 * k], data[2 + 2 * k]]);
intervals.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const merged = [];
for (const [left, right] of intervals) {
  const current = merged[merged.length - 1];
  if (current !== undefined && left <= current[1]) {
    current[1] = Math.max(current[1], right);
  } else {
    merged.push([left, right]);
  }
}
process.stdout.write(merged.map(([left, right]) => `${left} ${right}\n`).join(''));
