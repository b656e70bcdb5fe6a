package dsa;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * dsa-run's step recorder: an algorithm records what it does, one {@code @step {json}} line per
 * step on standard output.
 *
 * <pre>
 * import dsa.Recorder;
 *
 * Recorder rec = new Recorder(new long[] {5, 2, 4});
 * rec.compare(0, 1);                       // {"action":"compare","active":[0,1],...}
 * rec.swap(0, 1, "2 is smaller: swap");
 * rec.done();
 * </pre>
 *
 * <p>The recorder keeps the elements with stable ids (so duplicates animate correctly), writes every
 * step at once (flushed), and makes up a caption when none is given. docs/challenges.md ("Step
 * recorder") has the whole API; the step lines are the ones the steps checker reads.
 */
public final class Recorder {
    /** The steps a process may write; the next call throws. */
    public static final int MAX_STEPS = 100_000;

    private static int stepsWritten;

    private final List<Object> array = new ArrayList<>();
    private final List<Long> ids = new ArrayList<>();
    private long nextId;
    private final TreeSet<Integer> sorted = new TreeSet<>();
    private final List<Long> visited = new ArrayList<>();
    private final List<Long> frontier = new ArrayList<>();
    private Long current;

    /** A recorder with no elements: for the search and graph forms. */
    public Recorder() {}

    public Recorder(long[] items) {
        for (long item : items) add(item);
    }

    public Recorder(int[] items) {
        for (int item : items) add((long) item);
    }

    public Recorder(double[] items) {
        for (double item : items) add(checked(item));
    }

    public Recorder(String[] items) {
        for (String item : items) add(item);
    }

    /** Items that are Long, Integer, Double or String. */
    public Recorder(List<?> items) {
        for (Object item : items) add(normalized(item));
    }

    private void add(Object item) {
        array.add(item);
        ids.add(nextId++);
    }

    // ---- array form ------------------------------------------------------------------------

    /** The number of elements. */
    public int size() { return array.size(); }

    /** Element i as a long (for integer elements). */
    public long longAt(int i) { return ((Number) array.get(i)).longValue(); }

    /** Element i as a double. */
    public double doubleAt(int i) { return ((Number) array.get(i)).doubleValue(); }

    /** Element i as a string (for string elements). */
    public String stringAt(int i) { return (String) array.get(i); }

    /** Element i as it is kept: a Long, a Double or a String. */
    public Object get(int i) { return array.get(i); }

    /** The current values, for integer elements. */
    public long[] longs() {
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) out[i] = longAt(i);
        return out;
    }

    /** The current values, for floating-point elements. */
    public double[] doubles() {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) out[i] = doubleAt(i);
        return out;
    }

    /** The current values, for string elements. */
    public String[] strings() { return array.toArray(new String[0]); }

    /** The current elements' ids, in the array's order. */
    public long[] ids() {
        long[] out = new long[ids.size()];
        for (int i = 0; i < out.length; i++) out[i] = ids.get(i);
        return out;
    }

    public void compare(int i, int j) { compare(i, j, null); }

    public void compare(int i, int j, String caption) {
        if (caption == null) {
            caption = new StringBuilder("Compare index ").append(i).append(" (").append(json(array.get(i)))
                .append(") with index ").append(j).append(" (").append(json(array.get(j))).append(')').toString();
        }
        arrayStep("compare", new int[] {i, j}, caption);
    }

    public void swap(int i, int j) { swap(i, j, null); }

    public void swap(int i, int j, String caption) {
        Object value = array.get(i);
        array.set(i, array.get(j));
        array.set(j, value);
        Long id = ids.get(i);
        ids.set(i, ids.get(j));
        ids.set(j, id);
        arrayStep("swap", new int[] {i, j}, caption != null ? caption : "Swap index " + i + " and index " + j);
    }

    public void overwrite(int i, long value) { overwrite(i, (Object) value, null); }

    public void overwrite(int i, long value, String caption) { overwrite(i, (Object) value, caption); }

    public void overwrite(int i, double value) { overwrite(i, (Object) checked(value), null); }

    public void overwrite(int i, double value, String caption) { overwrite(i, (Object) checked(value), caption); }

    public void overwrite(int i, String value) { overwrite(i, (Object) value, null); }

    public void overwrite(int i, String value, String caption) { overwrite(i, (Object) value, caption); }

    private void overwrite(int i, Object value, String caption) {
        array.set(i, value);
        ids.set(i, nextId++);
        arrayStep("overwrite", new int[] {i}, caption != null ? caption : "Write " + json(value) + " at index " + i);
    }

    /** Marks index i sorted; writes no step of its own (the next step shows it). */
    public void markSorted(int i) {
        array.get(i); // an index out of range fails here, not at the next step
        sorted.add(i);
    }

    public void done() { done(null); }

    public void done(String caption) {
        for (int i = 0; i < array.size(); i++) sorted.add(i);
        arrayStep("done", new int[0], caption != null ? caption : "Done");
    }

    private void arrayStep(String action, int[] active, String caption) {
        StringBuilder out = begin(action);
        out.append(",\"active\":").append(Arrays.toString(active).replace(" ", ""));
        out.append(",\"array\":");
        appendJson(out, array);
        out.append(",\"ids\":");
        appendJson(out, ids);
        out.append(",\"sorted\":");
        appendJson(out, new ArrayList<>(sorted));
        write(out, caption);
    }

    // ---- search form -----------------------------------------------------------------------

    public void probe(long low, Long mid, long high, boolean found) { probe(low, mid, high, found, null); }

    public void probe(long low, Long mid, long high, boolean found, String caption) {
        if (caption == null) {
            if (mid == null) caption = "Empty window: low " + low + ", high " + high;
            else if (found) caption = "Found at index " + mid;
            else caption = "Probe index " + mid + ": low " + low + ", high " + high;
        }
        StringBuilder out = begin("probe");
        out.append(",\"low\":").append(low).append(",\"high\":").append(high);
        out.append(",\"mid\":").append(mid == null ? "null" : mid.toString()).append(",\"found\":").append(found);
        write(out, caption);
    }

    // ---- graph form ------------------------------------------------------------------------

    public void visit(long node) { visit(node, null); }

    public void visit(long node, String caption) {
        frontier.remove(Long.valueOf(node));
        if (!visited.contains(node)) visited.add(node);
        current = node;
        graphStep("visit", caption != null ? caption : "Visit node " + node);
    }

    public void discover(long node) { discover(node, null); }

    public void discover(long node, String caption) {
        if (!visited.contains(node)) visited.add(node);
        frontier.add(node);
        graphStep("discover", caption != null ? caption : "Discover node " + node);
    }

    /** The nodes visited or discovered, in order. */
    public List<Long> visited() { return new ArrayList<>(visited); }

    /** The nodes discovered and not yet visited, oldest first. */
    public List<Long> frontier() { return new ArrayList<>(frontier); }

    private void graphStep(String action, String caption) {
        StringBuilder out = begin(action);
        out.append(",\"current\":").append(current == null ? "null" : current.toString());
        out.append(",\"visited\":");
        appendJson(out, visited);
        out.append(",\"frontier\":");
        appendJson(out, frontier);
        write(out, caption);
    }

    // ---- any other step --------------------------------------------------------------------

    public void step(String action) { step(action, Map.of(), null); }

    public void step(String action, Map<String, ?> fields) { step(action, fields, null); }

    /** {"action": action, the fields..., "caption": caption}; values are numbers, strings, booleans, null, lists, arrays or maps. */
    public void step(String action, Map<String, ?> fields, String caption) {
        StringBuilder out = begin(action);
        for (Map.Entry<String, ?> field : fields.entrySet()) {
            if (field.getKey().equals("action") || field.getKey().equals("caption")) continue;
            out.append(',');
            appendString(out, field.getKey());
            out.append(':');
            appendJson(out, field.getValue());
        }
        write(out, caption != null ? caption : action);
    }

    // ---- writing ---------------------------------------------------------------------------

    static StringBuilder begin(String action) {
        if (stepsWritten >= MAX_STEPS) {
            throw new RecorderError("too many steps: the recorder keeps at most " + MAX_STEPS);
        }
        StringBuilder out = new StringBuilder(128).append("@step {\"action\":");
        appendString(out, action);
        return out;
    }

    static void write(StringBuilder out, String caption) {
        out.append(",\"caption\":");
        appendString(out, caption);
        out.append("}\n");
        stepsWritten++;
        // System.out at each step: a driver that redirects it is followed.
        PrintStream stream = System.out;
        stream.print(out);
        stream.flush();
    }

    private static double checked(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new RecorderError("the recorder cannot write " + (Double.isNaN(value) ? "NaN" : "Infinity")
                + ": JSON has no NaN or Infinity");
        }
        return value;
    }

    static Object normalized(Object item) {
        if (item instanceof Integer || item instanceof Short || item instanceof Byte) return ((Number) item).longValue();
        if (item instanceof Float) return checked(((Float) item).doubleValue());
        if (item instanceof Double) return checked((Double) item);
        if (item instanceof Long || item instanceof String) return item;
        throw new RecorderError("the recorder keeps integers, floating-point numbers or strings, not "
            + (item == null ? "null" : item.getClass().getSimpleName()));
    }

    static String json(Object value) {
        StringBuilder out = new StringBuilder();
        appendJson(out, value);
        return out.toString();
    }

    static void appendJson(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            appendString(out, (String) value);
        } else if (value instanceof Double || value instanceof Float) {
            double number = checked(((Number) value).doubleValue());
            out.append(number == Math.rint(number) && Math.abs(number) < 1e15 ? String.valueOf((long) number) + ".0"
                : Double.toString(number));
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                if (!first) out.append(',');
                first = false;
                appendString(out, String.valueOf(entry.getKey()));
                out.append(':');
                appendJson(out, entry.getValue());
            }
            out.append('}');
        } else if (value instanceof Iterable) {
            out.append('[');
            boolean first = true;
            for (Object item : (Iterable<?>) value) {
                if (!first) out.append(',');
                first = false;
                appendJson(out, item);
            }
            out.append(']');
        } else if (value.getClass().isArray()) {
            out.append('[');
            int length = java.lang.reflect.Array.getLength(value);
            for (int i = 0; i < length; i++) {
                if (i > 0) out.append(',');
                appendJson(out, java.lang.reflect.Array.get(value, i));
            }
            out.append(']');
        } else {
            appendString(out, value.toString());
        }
    }

    static void appendString(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }
}
