import 'driver.dart' show TreeNode;

bool isValidBst(TreeNode? root) {
  // Wrong on purpose: compares each node with its own children only, not with the bounds set by its ancestors.
  if (root == null) return true;
  final left = root.left, right = root.right;
  if (left != null && left.val >= root.val) return false;
  if (right != null && right.val <= root.val) return false;
  return isValidBst(left) && isValidBst(right);
}
