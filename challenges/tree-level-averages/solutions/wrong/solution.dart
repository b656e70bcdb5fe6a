import 'driver.dart' show TreeNode;

List<double> levelAverages(TreeNode? root) {
  final averages = <double>[];
  var level = [if (root != null) root];
  while (level.isNotEmpty) {
    final sum = level.fold<int>(0, (total, node) => total + node.val);
    // Wrong on purpose: integer division drops the fraction of the average.
    averages.add((sum ~/ level.length).toDouble());
    level = [
      for (final node in level) ...[if (node.left != null) node.left!, if (node.right != null) node.right!]
    ];
  }
  return averages;
}
