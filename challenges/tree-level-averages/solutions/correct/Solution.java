import java.util.*;

class Solution {
    public static double[] levelAverages(TreeNode root) {
        List<Double> averages = new ArrayList<>();
        Deque<TreeNode> pending = new ArrayDeque<>();
        if (root != null) pending.add(root);
        while (!pending.isEmpty()) {
            int width = pending.size();
            long sum = 0;
            for (int i = 0; i < width; i++) {
                TreeNode node = pending.poll();
                sum += node.val;
                if (node.left != null) pending.add(node.left);
                if (node.right != null) pending.add(node.right);
            }
            averages.add((double) sum / width);
        }
        return averages.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
