const { Recorder } = require('dsa');

/**
 * @param {number[]} values
 * @return {number[]}
 */
function pushAll(values) {
  // Grows by a fixed 16 slots: about n²/32 copies in all, O(n²).
  const rec = new Recorder();
  let capacity = 1;
  let size = 0;
  let buffer = new Array(capacity);
  const capacities = [];
  for (const value of values) {
    if (size == capacity) {
      capacity = capacity + 16;
      const bigger = new Array(capacity);
      for (let i = 0; i < size; i++) {
        bigger[i] = buffer[i];
        rec.step('copy', { index: i });
      }
      buffer = bigger;
    }
    buffer[size] = value;
    size++;
    capacities.push(capacity);
  }
  return capacities;
}
