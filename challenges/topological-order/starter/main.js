/** Optional: prints one step for the app's step player, e.g. step({action: 'look', j: 3, need: 4}). */
function step(fields) {
  console.log('@step ' + JSON.stringify(fields));
}

const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0).map(Number);
const [n, m] = data;
const rules = [];
for (let k = 0; k < m; k++) rules.push([data[2 + 2 * k], data[3 + 2 * k]]);
// TODO: print an order of tasks 1..n that obeys every rule, or "IMPOSSIBLE".
