/** Optional: prints one step for the app's step player, e.g. step({action: 'look', j: 3, need: 4}). */
function step(fields) {
  console.log('@step ' + JSON.stringify(fields));
}

const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0);
const n = Number(data[0]);
const target = Number(data[1]);
const values = data.slice(2, 2 + n).map(Number);

// TODO: find positions i < j with values[i] + values[j] === target (smallest j, then smallest i)
// and print them counting from 1, or "0 0" when there is no such pair.
console.log('0 0');
