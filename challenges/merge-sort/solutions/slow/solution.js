const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @return {number[]}
 */
function mergeSort(items) {
  // Insertion sort: right answers, but about n²/4 comparisons on random input.
  const rec = new Recorder();
  items = items.slice();
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0; j--) {
      rec.step('compare', { values: [items[j - 1], items[j]] });
      if (items[j - 1] <= items[j]) break;
      [items[j - 1], items[j]] = [items[j], items[j - 1]];
    }
  }
  return items;
}
