const { Recorder } = require('dsa');

/**
 * @param {number[]} items
 * @return {number[]}
 */
function heapSort(items) {
  const rec = new Recorder();
  const array = [...items];
  const ids = array.map((_, k) => k); // item k of the input has id k; a swap swaps ids too
  const record = (action, size, active, caption) =>
    rec.step(action, { heap: array.slice(0, size), ids: ids.slice(0, size), active }, caption);
  const swap = (i, j) => {
    [array[i], array[j]] = [array[j], array[i]];
    [ids[i], ids[j]] = [ids[j], ids[i]];
  };
  const siftDown = (parent, size) => {
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let larger = left; // the larger child; the left one when they are equal
      if (right < size && array[right] > array[left]) larger = right;
      if (larger >= size || array[larger] <= array[parent]) return;
      swap(parent, larger);
      record('swap', size, [parent, larger], `Sift down: swap ${array[larger]} with its larger child ${array[parent]}`);
      parent = larger;
    }
  };
  const n = array.length;
  for (let parent = Math.floor(n / 2) - 1; parent >= 0; parent--) siftDown(parent, n);
  for (let end = n - 1; end > 0; end--) {
    swap(0, end);
    record('pop', end, [0], `Move the largest, ${array[end]}, to index ${end}; ${array[0]} takes the root`);
    siftDown(0, end);
  }
  record('done', 0, [], 'Done: the heap is empty and the items are sorted');
  return array;
}
