const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @return {number[]}
 */
function bubbleSort(items) {
  const rec = new Recorder(items);
  const n = items.length;
  for (let donePasses = 0; donePasses < n - 1; donePasses++) {
    let swapped = false;
    // Wrong on purpose: every pass runs to the end, over items already bubbled into place.
    for (let j = 0; j < n - 1; j++) {
      rec.compare(j, j + 1);
      if (rec.array[j] > rec.array[j + 1]) {
        rec.swap(j, j + 1);
        swapped = true;
      }
    }
    if (!swapped) break;
  }
  rec.done();
  return rec.array;
}
