import 'driver.dart' show TreeNode;

List<double> levelAverages(TreeNode? root) {
  final averages = <double>[];
  var level = [if (root != null) root];
  while (level.isNotEmpty) {
    final sum = level.fold<int>(0, (total, node) => total + node.val);
    averages.add(sum / level.length);
    level = [
      for (final node in level) ...[if (node.left != null) node.left!, if (node.right != null) node.right!]
    ];
  }
  return averages;
}
