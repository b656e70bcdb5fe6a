/** Optional: prints one step for the app's step player, e.g. step({action: 'look', j: 3, need: 4}). */
function step(fields) {
  console.log('@step ' + JSON.stringify(fields));
}

const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0).map(Number);
const n = data[0];
const values = data.slice(1, 1 + n);
const parents = data.slice(1 + n, 1 + 2 * n);
// TODO: print the average value of each level, from the root's level down, one per line.
