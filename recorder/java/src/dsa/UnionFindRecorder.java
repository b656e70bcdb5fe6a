package dsa;

import java.util.Arrays;
import java.util.List;

/** Union-find's steps over elements 0..n-1, with union by rank unless told otherwise. */
public final class UnionFindRecorder {
    private final int[] parent;
    private final int[] rank;
    private final List<String> labels;

    public UnionFindRecorder(int n) { this(n, true, null); }

    public UnionFindRecorder(int n, boolean byRank) { this(n, byRank, null); }

    /** labels: names for the elements (null for none). */
    public UnionFindRecorder(int n, boolean byRank, String[] labels) {
        parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        rank = byRank ? new int[n] : null;
        this.labels = labels == null ? null : Arrays.asList(labels.clone());
    }

    public int[] parent() { return parent.clone(); }

    /** The ranks, null without union by rank. */
    public int[] rank() { return rank == null ? null : rank.clone(); }

    /** x's root, changing nothing and writing no step. */
    public int root(int x) {
        while (parent[x] != x) x = parent[x];
        return x;
    }

    public int find(int x) { return find(x, null); }

    /** x's root, with path compression (every element on the way then points at the root). */
    public int find(int x, String caption) {
        int root = root(x);
        for (int at = x; parent[at] != root;) {
            int next = parent[at];
            parent[at] = root;
            at = next;
        }
        step("find", new int[] {x}, caption != null ? caption : "Find " + x + ": its root is " + root);
        return root;
    }

    public boolean union(int a, int b) { return union(a, b, null); }

    /**
     * Joins a's and b's sets (the root of lower rank goes under the other; without ranks, b's root
     * under a's); returns false when they were one set already.
     */
    public boolean union(int a, int b, String caption) {
        int rootA = root(a);
        int rootB = root(b);
        String fallback = "Union " + a + " and " + b;
        if (rootA == rootB) {
            fallback = a + " and " + b + " are already in one set";
        } else {
            int upper = rootA;
            int lower = rootB;
            if (rank != null) {
                if (rank[upper] < rank[lower]) {
                    upper = rootB;
                    lower = rootA;
                }
                if (rank[upper] == rank[lower]) rank[upper]++;
            }
            parent[lower] = upper;
        }
        step("union", new int[] {rootA, rootB}, caption != null ? caption : fallback);
        return rootA != rootB;
    }

    public void setParent(int x, int parent) {
        if (parent < 0 || parent >= this.parent.length) throw new RecorderError("no element " + parent + " in this union-find");
        this.parent[x] = parent;
    }

    public void setRank(int x, int rank) {
        if (this.rank == null) throw new RecorderError("this union-find has no ranks (byRank false)");
        this.rank[x] = rank;
    }

    public void step(String action) { step(action, null, null); }

    public void step(String action, int[] active) { step(action, active, null); }

    /** Writes the forest; active (elements) is left out when null. */
    public void step(String action, int[] active, String caption) {
        StepLine line = new StepLine(action).field("parent", parent);
        if (rank != null) line.field("rank", rank);
        if (labels != null) line.field("labels", labels);
        if (active != null) {
            for (int x : active) {
                if (x < 0 || x >= parent.length) throw new RecorderError("no element " + x + " in this union-find");
            }
            line.field("active", active);
        }
        line.finish(caption != null ? caption : action);
    }
}
