package dsa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A linked list's steps: nodes with ids (0, 1, 2... in creation order, never reused), a head and
 * the algorithm's pointers. Links, the head and pointers change silently; {@link #step} writes the
 * list as it is. A null id is no node. A doubly linked list ({@code doubly} true) has a prev on each
 * node and a tail.
 */
public final class ListRecorder {
    private final List<Object[]> nodes = new ArrayList<>(); // {value, next, prev}
    private Integer head;
    private Integer tail;
    private boolean doubly;
    private final Map<String, Integer> pointers = new LinkedHashMap<>();

    public ListRecorder() {}

    public ListRecorder(boolean doubly) { this.doubly = doubly; }

    public ListRecorder(int[] values) { chain(values, false); }

    public ListRecorder(long[] values) { chain(values, false); }

    public ListRecorder(double[] values) { chain(values, false); }

    public ListRecorder(String[] values) { chain(values, false); }

    /** Values that are Long, Integer, Double or String. */
    public ListRecorder(List<?> values) { chain(values, false); }

    public ListRecorder(int[] values, boolean doubly) { chain(values, doubly); }

    public ListRecorder(long[] values, boolean doubly) { chain(values, doubly); }

    public ListRecorder(double[] values, boolean doubly) { chain(values, doubly); }

    public ListRecorder(String[] values, boolean doubly) { chain(values, doubly); }

    public ListRecorder(List<?> values, boolean doubly) { chain(values, doubly); }

    private void chain(Object values, boolean doubly) {
        this.doubly = doubly;
        Integer previous = null;
        for (Object value : StepLine.normalizedAll(values)) {
            int node = add(value);
            if (previous == null) {
                head = node;
            } else {
                link(previous, node);
                if (doubly) linkPrev(node, previous);
            }
            previous = node;
        }
        if (doubly) tail = previous;
    }

    /** A new node, linked to nothing; returns its id. */
    public int add(Object value) {
        nodes.add(new Object[] {Recorder.normalized(value), null, null});
        return nodes.size() - 1;
    }

    private Object[] node(int id) { return StepLine.alive(nodes, id, "node"); }

    public void link(int node, Integer next) { node(node)[1] = StepLine.aliveOrNull(nodes, next, "node"); }

    /** A doubly linked list's back link. */
    public void linkPrev(int node, Integer prev) {
        checkDoubly("linkPrev");
        node(node)[2] = StepLine.aliveOrNull(nodes, prev, "node");
    }

    public void setTail(Integer node) {
        checkDoubly("setTail");
        tail = StepLine.aliveOrNull(nodes, node, "node");
    }

    private void checkDoubly(String call) {
        if (!doubly) throw new RecorderError(call + " is for a doubly linked list: new ListRecorder(values, true)");
    }

    public void setHead(Integer node) { head = StepLine.aliveOrNull(nodes, node, "node"); }

    /** Sets the algorithm's pointer name (prev, curr, slow...) to a node id or null. */
    public void point(String name, Integer node) { pointers.put(name, StepLine.aliveOrNull(nodes, node, "node")); }

    /** The node leaves the list; a link, the head or a pointer to it becomes null. */
    public void remove(int node) {
        node(node);
        nodes.set(node, null);
        for (Object[] other : nodes) {
            if (other != null && Integer.valueOf(node).equals(other[1])) other[1] = null;
            if (other != null && Integer.valueOf(node).equals(other[2])) other[2] = null;
        }
        if (head != null && head == node) head = null;
        if (tail != null && tail == node) tail = null;
        pointers.replaceAll((name, target) -> target != null && target == node ? null : target);
    }

    public Integer head() { return head; }

    public Object value(int node) { return node(node)[0]; }

    public Integer next(int node) { return (Integer) node(node)[1]; }

    public Integer tail() { return tail; }

    public Integer prev(int node) { return (Integer) node(node)[2]; }

    public void step(String action) { step(action, null, null); }

    public void step(String action, int[] active) { step(action, active, null); }

    /** Writes the list; active (node ids) is left out when null. */
    public void step(String action, int[] active, String caption) {
        List<Object> written = new ArrayList<>();
        for (int id = 0; id < nodes.size(); id++) {
            Object[] node = nodes.get(id);
            if (node == null) continue;
            Map<String, Object> fields = StepLine.object("id", id, "value", node[0], "next", node[1]);
            if (doubly) fields.put("prev", node[2]);
            written.add(fields);
        }
        StepLine line = new StepLine(action).field("head", head);
        if (doubly) line.field("tail", tail);
        line.field("nodes", written).field("pointers", new LinkedHashMap<>(pointers));
        if (active != null) {
            for (int id : active) node(id);
            line.field("active", active);
        }
        line.finish(caption != null ? caption : action);
    }
}
