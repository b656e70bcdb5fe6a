import 'package:dsa/dsa.dart';
import 'driver.dart' show TreeNode;

List<int> inorder(TreeNode? root) {
  final rec = Recorder<int>();
  // Ids in level order (root 0, then each level left to right), as the test's array lists them.
  final ids = Map<TreeNode, int>.identity();
  final order = <TreeNode>[if (root != null) root];
  for (var next = 0; next < order.length; next++) {
    // order doubles as the breadth-first queue
    final node = order[next];
    ids[node] = next;
    if (node.left != null) order.add(node.left!);
    if (node.right != null) order.add(node.right!);
  }
  final nodes = [
    for (final node in order)
      {'id': ids[node], 'value': node.val, 'left': ids[node.left], 'right': ids[node.right]}
  ];
  final rootId = root == null ? null : 0;
  final visited = <int>[];
  final values = <int>[];
  Map<String, Object?> fields(List<int> active) =>
      {'root': rootId, 'nodes': nodes, 'active': active, 'visited': [...visited]};
  void walk(TreeNode? node) {
    if (node == null) return;
    walk(node.left);
    visited.add(ids[node]!);
    values.add(node.val);
    rec.step('visit', fields([ids[node]!]), 'Visit ${node.val}');
    walk(node.right);
  }

  walk(root);
  rec.step('done', fields([]), 'Every node visited');
  return values;
}
