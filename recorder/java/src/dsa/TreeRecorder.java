package dsa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A binary tree's steps (search tree, AVL, segment tree): nodes made by {@link #add} (the first one
 * is the root), linked silently; {@link #step} writes the tree as it is. A null id is no node.
 */
public final class TreeRecorder {
    private static final class Node {
        Object value;
        Integer left;
        Integer right;
        Integer height;
        int[] range;
    }

    private final List<Node> nodes = new ArrayList<>();
    private Integer root;
    private final Map<String, Integer> pointers = new LinkedHashMap<>();

    /** A new node, linked to nothing; returns its id (the first node added becomes the root). */
    public int add(Object value) {
        Node node = new Node();
        node.value = Recorder.normalized(value);
        nodes.add(node);
        if (nodes.size() == 1) root = 0;
        return nodes.size() - 1;
    }

    private Node node(int id) { return StepLine.alive(nodes, id, "node"); }

    public void setLeft(int node, Integer child) { node(node).left = StepLine.aliveOrNull(nodes, child, "node"); }

    public void setRight(int node, Integer child) { node(node).right = StepLine.aliveOrNull(nodes, child, "node"); }

    public void setRoot(Integer node) { root = StepLine.aliveOrNull(nodes, node, "node"); }

    public void setValue(int node, Object value) { node(node).value = Recorder.normalized(value); }

    /** An AVL node's height, written beside the node from now on. */
    public void setHeight(int node, int height) { node(node).height = height; }

    /** A segment tree node's range [low, high], written beside the node from now on. */
    public void setRange(int node, int low, int high) { node(node).range = new int[] {low, high}; }

    public void point(String name, Integer node) { pointers.put(name, StepLine.aliveOrNull(nodes, node, "node")); }

    /** The node leaves the tree; a link, the root or a pointer to it becomes null. */
    public void remove(int node) {
        node(node);
        nodes.set(node, null);
        for (Node other : nodes) {
            if (other != null && other.left != null && other.left == node) other.left = null;
            if (other != null && other.right != null && other.right == node) other.right = null;
        }
        if (root != null && root == node) root = null;
        pointers.replaceAll((name, target) -> target != null && target == node ? null : target);
    }

    public Integer root() { return root; }

    public Object value(int node) { return node(node).value; }

    public Integer left(int node) { return node(node).left; }

    public Integer right(int node) { return node(node).right; }

    public void step(String action) { step(action, null, null, null); }

    public void step(String action, int[] active) { step(action, active, null, null); }

    public void step(String action, int[] active, int[] visited) { step(action, active, visited, null); }

    /** Writes the tree; active and visited (node ids) are left out when null. */
    public void step(String action, int[] active, int[] visited, String caption) {
        List<Object> written = new ArrayList<>();
        for (int id = 0; id < nodes.size(); id++) {
            Node node = nodes.get(id);
            if (node == null) continue;
            Map<String, Object> fields = StepLine.object("id", id, "value", node.value, "left", node.left, "right", node.right);
            if (node.height != null) fields.put("height", node.height);
            if (node.range != null) fields.put("range", node.range);
            written.add(fields);
        }
        StepLine line = new StepLine(action).field("root", root).field("nodes", written);
        if (!pointers.isEmpty()) line.field("pointers", new LinkedHashMap<>(pointers));
        if (active != null) {
            for (int id : active) node(id);
            line.field("active", active);
        }
        if (visited != null) {
            for (int id : visited) node(id);
            line.field("visited", visited);
        }
        line.finish(caption != null ? caption : action);
    }
}
