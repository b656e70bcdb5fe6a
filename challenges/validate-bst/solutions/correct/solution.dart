import 'driver.dart' show TreeNode;

// low and high are the open range set by the ancestors; null is "no bound".
bool _within(TreeNode? node, int? low, int? high) {
  if (node == null) return true;
  if ((low != null && node.val <= low) || (high != null && node.val >= high)) return false;
  return _within(node.left, low, node.val) && _within(node.right, node.val, high);
}

bool isValidBst(TreeNode? root) => _within(root, null, null);
