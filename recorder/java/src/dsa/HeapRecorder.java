package dsa;

import java.util.ArrayList;
import java.util.List;

/**
 * A binary heap's steps, in array order (index i's children at 2i+1 and 2i+2); element k of the
 * values gets id k, a pushed one the next id.
 */
public final class HeapRecorder {
    private final List<Object> heap = new ArrayList<>();
    private final List<Integer> ids = new ArrayList<>();
    private int nextId;

    public HeapRecorder() {}

    public HeapRecorder(int[] values) { addAll(values); }

    public HeapRecorder(long[] values) { addAll(values); }

    public HeapRecorder(double[] values) { addAll(values); }

    public HeapRecorder(String[] values) { addAll(values); }

    /** Values that are Long, Integer, Double or String. */
    public HeapRecorder(List<?> values) { addAll(values); }

    private void addAll(Object values) {
        for (Object value : StepLine.normalizedAll(values)) {
            heap.add(value);
            ids.add(nextId++);
        }
    }

    public int size() { return heap.size(); }

    public Object get(int i) { return heap.get(i); }

    public List<Object> heap() { return new ArrayList<>(heap); }

    public List<Integer> ids() { return new ArrayList<>(ids); }

    public void push(Object value) { push(value, null); }

    /** Appends value (a fresh id) at the end; sifting it up is the algorithm's compares and swaps. */
    public void push(Object value, String caption) {
        Object kept = Recorder.normalized(value);
        heap.add(kept);
        ids.add(nextId++);
        step("push", new int[] {heap.size() - 1}, caption != null ? caption : "Push " + Recorder.json(kept));
    }

    public Object pop() { return pop(null); }

    /** Takes the root out, moves the last element to the root and returns the root's value. */
    public Object pop(String caption) {
        if (heap.isEmpty()) throw new RecorderError("pop from an empty heap");
        Object value = heap.get(0);
        int last = heap.size() - 1;
        heap.set(0, heap.get(last));
        ids.set(0, ids.get(last));
        heap.remove(last);
        ids.remove(last);
        step("pop", heap.isEmpty() ? new int[0] : new int[] {0}, caption != null ? caption : "Pop " + Recorder.json(value));
        return value;
    }

    public void compare(int i, int j) { compare(i, j, null); }

    public void compare(int i, int j, String caption) {
        step("compare", new int[] {i, j}, caption != null ? caption : "Compare index " + i + " (" + Recorder.json(heap.get(i))
            + ") with index " + j + " (" + Recorder.json(heap.get(j)) + ")");
    }

    public void swap(int i, int j) { swap(i, j, null); }

    public void swap(int i, int j, String caption) {
        Object value = heap.get(i);
        heap.set(i, heap.get(j));
        heap.set(j, value);
        Integer id = ids.get(i);
        ids.set(i, ids.get(j));
        ids.set(j, id);
        step("swap", new int[] {i, j}, caption != null ? caption : "Swap index " + i + " and index " + j);
    }

    public void step(String action) { step(action, new int[0], null); }

    public void step(String action, int[] active) { step(action, active, null); }

    /** Writes the heap with active indices. */
    public void step(String action, int[] active, String caption) {
        if (active == null) active = new int[0];
        for (int i : active) heap.get(i);
        new StepLine(action).field("heap", heap).field("ids", ids).field("active", active)
            .finish(caption != null ? caption : action);
    }
}
