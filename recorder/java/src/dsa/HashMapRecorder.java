package dsa;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A hash table's steps: buckets of entries, each entry an id given when inserted. {@link #start}
 * begins an operation on a key (its key and hash are written from then on, the probe empty).
 */
public final class HashMapRecorder {
    private static final class Entry {
        Object key;
        Object value;
        int bucket;
        boolean deleted;
    }

    private final List<List<Integer>> buckets = new ArrayList<>();
    private final List<Entry> entries = new ArrayList<>();
    private Object key;
    private Long hash;
    private final List<Integer> probe = new ArrayList<>();

    public HashMapRecorder(int bucketCount) {
        for (int i = 0; i < bucketCount; i++) buckets.add(new ArrayList<>());
    }

    private Entry entry(int id) { return StepLine.alive(entries, id, "entry"); }

    public void start(Object key, long hash) {
        this.key = Recorder.normalized(key);
        this.hash = hash;
        probe.clear();
    }

    public void probe(int bucket) { probe(bucket, null); }

    public void probe(int bucket, String caption) {
        buckets.get(bucket);
        probe.add(bucket);
        step("probe", null, caption != null ? caption : "Probe bucket " + bucket);
    }

    public int insert(int bucket, Object key, Object value) { return insert(bucket, key, value, null); }

    /** Adds the entry at the end of bucket; returns its id. */
    public int insert(int bucket, Object key, Object value, String caption) {
        Entry entry = new Entry();
        entry.key = Recorder.normalized(key);
        entry.value = Recorder.normalized(value);
        entry.bucket = bucket;
        buckets.get(bucket).add(entries.size());
        entries.add(entry);
        int id = entries.size() - 1;
        step("insert", new int[] {id}, caption != null ? caption : "Put " + Recorder.json(entry.key) + " in bucket " + bucket);
        return id;
    }

    public void remove(int id) { remove(id, null); }

    public void remove(int id, String caption) {
        Entry entry = entry(id);
        buckets.get(entry.bucket).remove(Integer.valueOf(id));
        step("remove", new int[] {id}, caption != null ? caption : "Remove " + Recorder.json(entry.key));
        entries.set(id, null);
    }

    public void setValue(int id, Object value) { entry(id).value = Recorder.normalized(value); }

    public void markDeleted(int id) { markDeleted(id, null); }

    /** Open addressing's delete: the entry stays in its bucket as a tombstone ("deleted": true). */
    public void markDeleted(int id, String caption) {
        Entry entry = entry(id);
        entry.deleted = true;
        step("delete", new int[] {id}, caption != null ? caption : "Delete " + Recorder.json(entry.key) + ": a tombstone stays");
    }

    /** More buckets (entries stay where they are until moved). */
    public void resize(int bucketCount) {
        if (bucketCount < buckets.size()) {
            throw new RecorderError("a hash map grows: move the entries, then resize to more buckets");
        }
        while (buckets.size() < bucketCount) buckets.add(new ArrayList<>());
    }

    /** Moves the entry to the end of bucket (a rehash); no step. */
    public void move(int id, int bucket) {
        Entry entry = entry(id);
        buckets.get(bucket);
        buckets.get(entry.bucket).remove(Integer.valueOf(id));
        buckets.get(bucket).add(id);
        entry.bucket = bucket;
    }

    public Object key(int id) { return entry(id).key; }

    public Object value(int id) { return entry(id).value; }

    /** The ids of a bucket's entries, in order. */
    public List<Integer> bucket(int index) { return new ArrayList<>(buckets.get(index)); }

    public void step(String action) { step(action, null, null); }

    public void step(String action, int[] active) { step(action, active, null); }

    /** Writes the table; active (entry ids) is left out when null. */
    public void step(String action, int[] active, String caption) {
        List<Object> written = new ArrayList<>();
        for (List<Integer> bucket : buckets) {
            List<Object> row = new ArrayList<>();
            for (int id : bucket) {
                Entry entry = entries.get(id);
                Map<String, Object> fields = StepLine.object("id", id, "key", entry.key, "value", entry.value);
                if (entry.deleted) fields.put("deleted", true);
                row.add(fields);
            }
            written.add(row);
        }
        StepLine line = new StepLine(action).field("buckets", written).field("key", key).field("hash", hash).field("probe", probe);
        if (active != null) {
            for (int id : active) entry(id);
            line.field("active", active);
        }
        line.finish(caption != null ? caption : action);
    }
}
