const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @return {number[]}
 */
function mergeSort(items) {
  return sortPart(items, new Recorder());
}

function sortPart(items, rec) {
  if (items.length < 2) return items;
  const middle = items.length >> 1;
  const left = sortPart(items.slice(0, middle), rec);
  const right = sortPart(items.slice(middle), rec);
  const merged = [];
  let i = 0, j = 0;
  while (i < left.length && j < right.length) {
    rec.step('compare', { values: [left[i], right[j]] });
    if (left[i] < right[j]) merged.push(left[i++]);
    else if (left[i] > right[j]) merged.push(right[j++]);
    else {
      // Wrong on purpose: two equal items are written once, so a duplicate is lost.
      merged.push(left[i++]);
      j++;
    }
  }
  return merged.concat(left.slice(i), right.slice(j));
}
