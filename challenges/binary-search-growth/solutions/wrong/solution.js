const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @param {number} target
 * @return {number}
 */
function binarySearch(items, target) {
  const rec = new Recorder();
  // Wrong on purpose: the window leaves out the last item.
  let low = 0, high = items.length - 2;
  while (low <= high) {
    const mid = (low + high) >> 1;
    rec.probe(low, mid, high, items[mid] === target);
    if (items[mid] === target) return mid;
    if (items[mid] < target) low = mid + 1;
    else high = mid - 1;
  }
  rec.probe(low, null, high, false);
  return -1;
}
