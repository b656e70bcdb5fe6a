const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @return {number[]}
 */
function insertionSort(items) {
  const rec = new Recorder(items);
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0; j--) {
      rec.compare(j - 1, j);
      if (rec.array[j - 1] <= rec.array[j]) break;
      rec.swap(j - 1, j);
    }
  }
  rec.done();
  return rec.array;
}
