/**
 * @param {string} a
 * @param {string} b
 * @return {number}
 */
function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j); // row 0: insert b's first j characters
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array(b.length + 1).fill(0);
    cur[0] = i; // column 0: delete a's first i characters
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
