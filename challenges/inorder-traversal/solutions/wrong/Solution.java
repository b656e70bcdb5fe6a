import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] inorder(TreeNode root) {
        Recorder rec = new Recorder();
        // Ids in level order (root 0, then each level left to right), as the test's array lists them.
        Map<TreeNode, Integer> ids = new IdentityHashMap<>();
        List<TreeNode> order = new ArrayList<>();
        ArrayDeque<TreeNode> queue = new ArrayDeque<>();
        if (root != null) queue.add(root);
        while (!queue.isEmpty()) {
            TreeNode node = queue.poll();
            ids.put(node, order.size());
            order.add(node);
            if (node.left != null) queue.add(node.left);
            if (node.right != null) queue.add(node.right);
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (TreeNode node : order) {
            Map<String, Object> shown = new LinkedHashMap<>();
            shown.put("id", ids.get(node));
            shown.put("value", node.val);
            shown.put("left", node.left == null ? null : ids.get(node.left));
            shown.put("right", node.right == null ? null : ids.get(node.right));
            nodes.add(shown);
        }
        Integer rootId = root == null ? null : 0;
        List<Integer> visited = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        walk(rec, root, ids, rootId, nodes, visited, values);
        rec.step("done", fields(rootId, nodes, List.of(), visited), "Every node visited");
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    static void walk(Recorder rec, TreeNode node, Map<TreeNode, Integer> ids, Integer rootId,
                     List<Map<String, Object>> nodes, List<Integer> visited, List<Long> values) {
        if (node == null) return;
        // Wrong on purpose: the node is visited before its left subtree (pre-order).
        visited.add(ids.get(node));
        values.add(node.val);
        rec.step("visit", fields(rootId, nodes, List.of(ids.get(node)), visited), "Visit " + node.val);
        walk(rec, node.left, ids, rootId, nodes, visited, values);
        walk(rec, node.right, ids, rootId, nodes, visited, values);
    }

    static Map<String, Object> fields(Integer rootId, List<Map<String, Object>> nodes, List<Integer> active,
                                      List<Integer> visited) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("root", rootId);
        fields.put("nodes", nodes);
        fields.put("active", active);
        fields.put("visited", new ArrayList<>(visited));
        return fields;
    }
}
