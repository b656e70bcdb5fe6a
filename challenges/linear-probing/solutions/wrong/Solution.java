import dsa.Recorder;
import java.util.*;

class Solution {
    static final long EMPTY = -1;

    public static long[] insertAll(long capacity, long[] keys) {
        Recorder rec = new Recorder();
        int size = (int) capacity;
        long[] table = new long[size];
        long[] ids = new long[size]; // the id of the entry in each bucket: its insertion order
        Arrays.fill(table, EMPTY);
        long nextId = 0;
        for (long key : keys) {
            int home = (int) (key % size);
            List<Integer> probe = new ArrayList<>();
            for (int bucket = home;; bucket = (bucket + 1) % size) {
                probe.add(bucket);
                // wrong: stops only at an empty bucket, so a key already there is inserted again
                if (table[bucket] == EMPTY) {
                    table[bucket] = key;
                    ids[bucket] = nextId++;
                    record(rec, "insert", table, ids, key, home, probe,
                        "Insert " + key + " in bucket " + bucket + " (its hash is " + home + ")");
                    break;
                }
            }
        }
        return table;
    }

    static void record(Recorder rec, String action, long[] table, long[] ids, long key, int home, List<Integer> probe,
                       String caption) {
        List<List<Map<String, Object>>> buckets = new ArrayList<>();
        for (int b = 0; b < table.length; b++) {
            List<Map<String, Object>> bucket = new ArrayList<>();
            if (table[b] != EMPTY) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("id", ids[b]);
                entry.put("key", table[b]);
                entry.put("value", null);
                bucket.add(entry);
            }
            buckets.add(bucket);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("buckets", buckets);
        fields.put("key", key);
        fields.put("hash", home);
        fields.put("probe", probe);
        rec.step(action, fields, caption);
    }
}
