package dsa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One step's fields, written in the order they are added (the shape recorders' writer). */
final class StepLine {
    private final StringBuilder out;

    StepLine(String action) { out = Recorder.begin(action); }

    StepLine field(String name, Object value) {
        out.append(',');
        Recorder.appendString(out, name);
        out.append(':');
        Recorder.appendJson(out, value);
        return this;
    }

    void finish(String caption) { Recorder.write(out, caption); }

    static Map<String, Object> object(Object... namesAndValues) {
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) object.put((String) namesAndValues[i], namesAndValues[i + 1]);
        return object;
    }

    static List<Object> normalizedAll(Object values) {
        List<Object> out = new ArrayList<>();
        if (values == null) return out;
        if (values instanceof Iterable) {
            for (Object value : (Iterable<?>) values) out.add(Recorder.normalized(value));
        } else {
            int length = java.lang.reflect.Array.getLength(values);
            for (int i = 0; i < length; i++) out.add(Recorder.normalized(java.lang.reflect.Array.get(values, i)));
        }
        return out;
    }

    /** Ids 0..n-1 held in a list, a removed one null: the shape recorders' nodes and entries. */
    static <T> T alive(List<T> nodes, Integer id, String what) {
        if (id == null || id < 0 || id >= nodes.size() || nodes.get(id) == null) {
            throw new RecorderError("no " + what + " " + id + ": ids are the ones the recorder gave");
        }
        return nodes.get(id);
    }

    static <T> Integer aliveOrNull(List<T> nodes, Integer id, String what) {
        if (id != null) alive(nodes, id, what);
        return id;
    }
}
