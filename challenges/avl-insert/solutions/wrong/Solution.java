import dsa.Recorder;
import java.util.*;

class Solution {
    // Node k (the k-th value inserted) keeps id k; -1 is "no node".
    private final Recorder rec = new Recorder();
    private final List<Long> value = new ArrayList<>();
    private final List<Integer> left = new ArrayList<>(), right = new ArrayList<>(), height = new ArrayList<>();
    private int root = -1;

    private int h(int x) { return x == -1 ? 0 : height.get(x); }

    private void update(int x) { height.set(x, 1 + Math.max(h(left.get(x)), h(right.get(x)))); }

    // The heights in the tree as drawn, whatever is stored yet.
    private int fill(int x, int[] drawn) {
        return x == -1 ? 0 : (drawn[x] = 1 + Math.max(fill(left.get(x), drawn), fill(right.get(x), drawn)));
    }

    private void record(String action, int active, String caption) {
        int[] drawn = new int[value.size()];
        fill(root, drawn);
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (int k = 0; k < value.size(); k++) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("id", k);
            node.put("value", value.get(k));
            node.put("left", left.get(k) == -1 ? null : left.get(k));
            node.put("right", right.get(k) == -1 ? null : right.get(k));
            node.put("height", drawn[k]);
            nodes.add(node);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("root", root);
        fields.put("nodes", nodes);
        fields.put("active", List.of(active));
        rec.step(action, fields, caption);
    }

    private void rotate(int z, int parent, boolean toLeft) {  // z's child moves up into z's place
        int y;
        if (toLeft) {
            y = right.get(z);
            right.set(z, left.get(y));
            left.set(y, z);
        } else {
            y = left.get(z);
            left.set(z, right.get(y));
            right.set(y, z);
        }
        update(z);
        update(y);
        if (parent == -1) root = y;
        else if (left.get(parent) == z) left.set(parent, y);
        else right.set(parent, y);
        record("rotate", z, "Rotate " + (toLeft ? "left" : "right") + " at " + value.get(z));
    }

    private void insert(long v) {
        int node = value.size();
        value.add(v);
        left.add(-1);
        right.add(-1);
        height.add(1);
        List<Integer> path = new ArrayList<>();  // from the root down to the new node's parent
        if (root == -1) {
            root = node;
        } else {
            for (int current = root; current != -1; current = v < value.get(current) ? left.get(current) : right.get(current))
                path.add(current);
            int parent = path.get(path.size() - 1);
            if (v < value.get(parent)) left.set(parent, node);
            else right.set(parent, node);  // ties go right
        }
        record("insert", node, "Insert " + v);
        for (int depth = path.size() - 1; depth >= 0; depth--) {  // back up the path: heights, then balance
            int z = path.get(depth), parent = depth > 0 ? path.get(depth - 1) : -1;
            update(z);
            int balance = h(left.get(z)) - h(right.get(z));
            if (balance > 1) {
                // Wrong on purpose: no double rotations, so a left-right or right-left case gets one rotation that leaves it unbalanced.
                rotate(z, parent, false);
            } else if (balance < -1) {
                rotate(z, parent, true);
            }
        }
    }

    private TreeNode toTree(int x) {
        return x == -1 ? null : new TreeNode(value.get(x), toTree(left.get(x)), toTree(right.get(x)));
    }

    public TreeNode avlInsertAll(long[] values) {
        for (long v : values) insert(v);
        return toTree(root);
    }
}
