/**
 * Slow on purpose: k rounds of taking out the largest value left, O(n x k).
 * @param {number[]} nums
 * @param {number} k
 * @return {number}
 */
function kthLargest(nums, k) {
  let comparisons = 0;
  // `<` because values beyond 2^53 arrive as BigInt.
  const less = (a, b) => {
    comparisons++;
    return a < b;
  };
  const left = nums.slice();
  let largest = left[0];
  for (let round = 0; round < Number(k); round++) {
    let at = 0;
    for (let i = 1; i < left.length; i++) {
      if (less(left[at], left[i])) at = i;
    }
    largest = left[at];
    left[at] = left[left.length - 1];
    left.pop();
  }
  console.log(`@count ${comparisons}`);
  return largest;
}
