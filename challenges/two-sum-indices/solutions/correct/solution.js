/**
 * @param {number[]} nums
 * @param {number} target
 * @return {number[]}
 */
function twoSum(nums, target) {
  const firstIndex = new Map();
  for (let j = 0; j < nums.length; j++) {
    const partner = firstIndex.get(target - nums[j]);
    if (partner !== undefined) return [partner, j];
    // Keep the first index of each value: the smallest i wins.
    if (!firstIndex.has(nums[j])) firstIndex.set(nums[j], j);
  }
  return [];
}
