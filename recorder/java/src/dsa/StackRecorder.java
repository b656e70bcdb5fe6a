package dsa;

import java.util.ArrayList;
import java.util.List;

/**
 * A stack's, queue's or deque's steps (its kind, the step's list name): bottom to top, or front to
 * back; element k of the values gets id k, a pushed one the next id.
 */
public final class StackRecorder {
    private final String kind;
    private final List<Object> items = new ArrayList<>();
    private final List<Integer> ids = new ArrayList<>();
    private int nextId;

    /** A stack. */
    public StackRecorder() { this("stack"); }

    /** kind: "stack", "queue" or "deque". */
    public StackRecorder(String kind) {
        if (!kind.equals("stack") && !kind.equals("queue") && !kind.equals("deque")) {
            throw new RecorderError("kind is stack, queue or deque, not " + kind);
        }
        this.kind = kind;
    }

    public StackRecorder(String kind, int[] values) { this(kind); addAll(values); }

    public StackRecorder(String kind, long[] values) { this(kind); addAll(values); }

    public StackRecorder(String kind, double[] values) { this(kind); addAll(values); }

    public StackRecorder(String kind, String[] values) { this(kind); addAll(values); }

    /** Values that are Long, Integer, Double or String. */
    public StackRecorder(String kind, List<?> values) { this(kind); addAll(values); }

    private void addAll(Object values) {
        for (Object value : StepLine.normalizedAll(values)) {
            items.add(value);
            ids.add(nextId++);
        }
    }

    public int size() { return items.size(); }

    public Object get(int i) { return items.get(i); }

    public List<Object> items() { return new ArrayList<>(items); }

    public List<Integer> ids() { return new ArrayList<>(ids); }

    private void add(boolean front, Object value, String action, String caption, String before, String after) {
        Object kept = Recorder.normalized(value);
        int id = nextId++;
        items.add(front ? 0 : items.size(), kept);
        ids.add(front ? 0 : ids.size(), id);
        step(action, StepLine.object("id", id, "value", kept), caption != null ? caption : before + Recorder.json(kept) + after);
    }

    private Object take(boolean front, String action, String caption, String before, String after) {
        if (items.isEmpty()) throw new RecorderError(action + " from an empty " + kind);
        int at = front ? 0 : items.size() - 1;
        Object value = items.remove(at);
        int id = ids.remove(at);
        step(action, StepLine.object("id", id, "value", value), caption != null ? caption : before + Recorder.json(value) + after);
        return value;
    }

    public void push(Object value) { push(value, null); }

    public void push(Object value, String caption) { add(false, value, "push", caption, "Push ", ""); }

    public Object pop() { return pop(null); }

    public Object pop(String caption) { return take(false, "pop", caption, "Pop ", ""); }

    public void enqueue(Object value) { enqueue(value, null); }

    public void enqueue(Object value, String caption) { add(false, value, "enqueue", caption, "Enqueue ", ""); }

    public Object dequeue() { return dequeue(null); }

    public Object dequeue(String caption) { return take(true, "dequeue", caption, "Dequeue ", ""); }

    public void pushFront(Object value) { pushFront(value, null); }

    public void pushFront(Object value, String caption) { add(true, value, "push_front", caption, "Push ", " at the front"); }

    public void pushBack(Object value) { pushBack(value, null); }

    public void pushBack(Object value, String caption) { add(false, value, "push_back", caption, "Push ", " at the back"); }

    public Object popFront() { return popFront(null); }

    public Object popFront(String caption) { return take(true, "pop_front", caption, "Pop ", " from the front"); }

    public Object popBack() { return popBack(null); }

    public Object popBack(String caption) { return take(false, "pop_back", caption, "Pop ", " from the back"); }

    public Object peek() { return peek(null); }

    /** The top of a stack, the front of a queue or deque; moved is null. */
    public Object peek(String caption) {
        if (items.isEmpty()) throw new RecorderError("peek at an empty " + kind);
        Object value = kind.equals("stack") ? items.get(items.size() - 1) : items.get(0);
        step("peek", null, caption != null ? caption : "Peek " + Recorder.json(value));
        return value;
    }

    public void step(String action) { step(action, null, action); }

    public void step(String action, String caption) { step(action, null, caption != null ? caption : action); }

    private void step(String action, Object moved, String caption) {
        new StepLine(action).field(kind, items).field("ids", ids).field("moved", moved).finish(caption);
    }
}
