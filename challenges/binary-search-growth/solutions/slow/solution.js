const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @param {number} target
 * @return {number}
 */
function binarySearch(items, target) {
  // A scan from the start: right answers, about n probes.
  const rec = new Recorder();
  for (let index = 0; index < items.length; index++) {
    rec.probe(index, index, items.length - 1, items[index] === target);
    if (items[index] === target) return index;
    if (items[index] > target) break;
  }
  return -1;
}
