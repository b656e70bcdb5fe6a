/**
 * @param {number[]} items
 * @return {number[][]}
 */
function distinctPermutations(items) {
  const values = [...items].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const used = values.map(() => false);
  const prefix = [];
  const permutations = [];
  const extend = () => {
    if (prefix.length === values.length) {
      permutations.push([...prefix]);
      return;
    }
    for (let k = 0; k < values.length; k++) {
      // An equal value whose earlier copy is free would start a permutation already made.
      if (used[k] || (k > 0 && values[k] === values[k - 1] && !used[k - 1])) continue;
      used[k] = true;
      prefix.push(values[k]);
      extend();
      prefix.pop();
      used[k] = false;
    }
  };
  extend();
  return permutations;
}
