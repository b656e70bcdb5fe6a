/**
 * @param {number[]} nums
 * @param {number} target
 * @return {number[]}
 */
function twoSum(nums, target) {
  const firstIndex = new Map();
  for (let j = 0; j < nums.length; j++) {
    // Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
    if (!firstIndex.has(nums[j])) firstIndex.set(nums[j], j);
    const partner = firstIndex.get(target - nums[j]);
    if (partner !== undefined) return [partner, j];
  }
  return [];
}
