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
    // Wrong on purpose: every position is tried, so equal values give the same permutation several times.
    for (let k = 0; k < values.length; k++) {
      if (used[k]) continue;
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
