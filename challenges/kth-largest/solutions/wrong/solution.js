/**
 * @param {number[]} nums
 * @param {number} k
 * @return {number}
 */
function kthLargest(nums, k) {
  // Wrong on purpose: repeated values are counted once (a Set), so it finds the k-th largest distinct value.
  const distinct = [...new Set(nums)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  return distinct[Number(k) - 1];
}
