const { Recorder } = require('dsa');

/**
 * @param {number[]} values
 * @return {number[]}
 */
function pushAll(values) {
  // Off by one: grows only when the array holds one item more than its capacity (a spare slot hides the overflow).
  const rec = new Recorder();
  let capacity = 1;
  let size = 0;
  let buffer = new Array(capacity + 1);
  const capacities = [];
  for (const value of values) {
    if (size > capacity) {
      capacity = capacity * 2;
      const bigger = new Array(capacity + 1);
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
