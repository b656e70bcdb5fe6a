/**
 * @param {TreeNode|null} root
 * @return {boolean}
 */
function isValidBst(root) {
  // low and high are the open range set by the ancestors; null is "no bound". Values beyond 2^53
  // arrive as BigInt, and < and > compare a BigInt with a Number correctly.
  const within = (node, low, high) => {
    if (node === null) return true;
    if ((low !== null && node.val <= low) || (high !== null && node.val >= high)) return false;
    return within(node.left, low, node.val) && within(node.right, node.val, high);
  };
  return within(root, null, null);
}
