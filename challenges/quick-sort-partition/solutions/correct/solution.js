const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @return {number[]}
 */
function quickSort(items) {
  const rec = new Recorder();
  const array = [...items];
  const step = (action, active) => rec.step(action, { active, array });

  function sort(lo, hi) {
    if (lo >= hi) return;
    const pivot = array[hi];
    step('pivot', [hi]);
    let i = lo;
    for (let j = lo; j < hi; j++) {
      step('compare', [j, hi]);
      if (array[j] <= pivot) {
        if (i !== j) {
          [array[i], array[j]] = [array[j], array[i]];
          step('swap', [i, j]);
        }
        i++;
      }
    }
    [array[i], array[hi]] = [array[hi], array[i]];
    step('place', [i]);
    sort(lo, i - 1);
    sort(i + 1, hi);
  }

  sort(0, array.length - 1);
  step('done', []);
  return array;
}
