const { Recorder } = require('dsa');

const STEPPED = 50; // indices whose operations record steps

/**
 * @param {number[]} items
 * @param {number} k
 * @return {number[]}
 */
function windowMax(items, k) {
  const rec = new Recorder();
  const window = []; // indices; the deque is window[head..], its items decreasing
  let head = 0;
  const answers = [];
  const record = (action, index, caption) => {
    const deque = window.slice(head);
    rec.step(action, { deque, ids: deque, moved: { id: index, value: index } }, caption);
  };
  for (let i = 0; i < items.length; i++) {
    // k and the items may arrive as BigInts: compare with Number(k) and plain <=.
    if (head < window.length && window[head] < i - Number(k) /* wrong: one index too late */) {
      const left = window[head++];
      if (i < STEPPED) record('pop_front', left, `Index ${left} has left the window: drop it from the front`);
    }
    while (head < window.length && items[window[window.length - 1]] <= items[i]) {
      const smaller = window.pop();
      if (i < STEPPED) record('pop_back', smaller, `${items[smaller]} at index ${smaller} is not larger than ${items[i]}: drop it`);
    }
    window.push(i);
    if (i < STEPPED) record('push_back', i, `Push index ${i} (${items[i]}) at the back`);
    if (i >= Number(k) - 1) answers.push(items[window[head]]);
  }
  return answers;
}
