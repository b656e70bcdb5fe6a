/** Optional: prints one step for the app's step player, e.g. step({action: 'look', j: 3, need: 4}). */
function step(fields) {
  console.log('@step ' + JSON.stringify(fields));
}

function balanced(text) {
  // TODO: return true when the brackets of text are balanced.
  return false;
}

const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0);
const count = Number(data[0]);
for (const text of data.slice(1, 1 + count)) console.log(balanced(text) ? 'YES' : 'NO');
