/**
 * @param {string} a
 * @param {string} b
 * @return {number}
 */
function editDistance(a, b) {
  // Wrong on purpose: the first row and column start at 0, as if deleting or inserting a prefix were free.
  let prev = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
