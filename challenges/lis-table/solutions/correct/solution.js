const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @return {number[]}
 */
function lisTable(items) {
  const rec = new Recorder();
  const best = new Array(items.length).fill(null); // best[i]: the longest increasing run ending at item i
  for (let i = 0; i < items.length; i++) {
    const reads = [];
    let longest = 0;
    for (let j = 0; j < i; j++) {
      if (items[j] < items[i]) {
        reads.push([j]);
        longest = Math.max(longest, best[j]);
      }
    }
    best[i] = longest + 1;
    rec.step('fill', { table: best, cell: [i], reads }, `best[${i}] = ${best[i]}`);
  }
  return best;
}
