/**
 * @param {TreeNode|null} root
 * @return {boolean}
 */
function isValidBst(root) {
  // Wrong on purpose: compares each node with its own children only, not with the bounds set by its ancestors.
  if (root === null) return true;
  if (root.left !== null && root.left.val >= root.val) return false;
  if (root.right !== null && root.right.val <= root.val) return false;
  return isValidBst(root.left) && isValidBst(root.right);
}
