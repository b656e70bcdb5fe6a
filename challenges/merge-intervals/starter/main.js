/** Optional: prints one step for the app's step player, e.g. step({action: 'look', j: 3, need: 4}). */
function step(fields) {
  console.log('@step ' + JSON.stringify(fields));
}

const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0).map(Number);
const n = data[0];
const intervals = [];
for (let k = 0; k < n; k++) intervals.push([data[1 + 2 * k], data[2 + 2 * k]]);
// TODO: merge the overlapping intervals and print them from left to right, one "l r" per line.
