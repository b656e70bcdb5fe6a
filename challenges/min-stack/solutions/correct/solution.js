const { Recorder } = require('dsa');

const STEPPED = 50; // operations that record steps

/**
 * @param {string[]} ops
 * @param {number[]} values
 * @return {number[]}
 */
function minStack(ops, values) {
  const rec = new Recorder();
  const stack = [];
  const ids = [];
  const mins = []; // mins[k]: the minimum of stack[0..k]
  const answers = [];
  let nextId = 0;
  for (let i = 0; i < ops.length; i++) {
    if (ops[i] === 'push') {
      // A value beyond 2^53 arrives as a BigInt: compare with < (Math.min refuses BigInts).
      const value = values[i];
      const below = mins.length ? mins[mins.length - 1] : value;
      stack.push(value);
      ids.push(nextId++);
      mins.push(value < below ? value : below);
      if (i < STEPPED) {
        const minimum = mins[mins.length - 1];
        rec.step('push', { stack, ids, moved: { id: ids[ids.length - 1], value }, min: minimum },
          `Push ${value}: the minimum is ${minimum}`);
      }
    } else if (ops[i] === 'pop') {
      const value = stack.pop();
      const id = ids.pop();
      mins.pop();
      if (i < STEPPED) {
        const minimum = mins.length ? mins[mins.length - 1] : null;
        rec.step('pop', { stack, ids, moved: { id, value }, min: minimum },
          minimum === null ? `Pop ${value}: the stack is empty` : `Pop ${value}: the minimum is ${minimum}`);
      }
    } else if (ops[i] === 'top') {
      answers.push(stack[stack.length - 1]);
    } else {
      answers.push(mins[mins.length - 1]);
    }
  }
  return answers;
}
