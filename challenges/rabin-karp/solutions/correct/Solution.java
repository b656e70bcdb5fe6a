import dsa.Recorder;
import java.util.*;

class Solution {
    static final long BASE = 256, MODULUS = 1_000_000_007;
    static final int STEPS_UP_TO = 100;  // a longer text records only the done step

    static long mod(long x) {
        return (x % MODULUS + MODULUS) % MODULUS;
    }

    public static long[] findAll(String text, String pattern) {
        Recorder rec = new Recorder();
        boolean recording = text.length() <= STEPS_UP_TO;
        int n = text.length(), m = pattern.length();
        List<Long> found = new ArrayList<>();
        long patternHash = 0, windowHash = 0, high = 1;  // high: BASE^(m-1), a window's first weight
        for (int i = 0; i < m; i++) patternHash = mod(patternHash * BASE + pattern.charAt(i));
        for (int i = 1; i < m; i++) high = mod(high * BASE);
        for (int offset = 0; offset + m <= n; offset++) {
            if (offset == 0) {
                for (int i = 0; i < m; i++) windowHash = mod(windowHash * BASE + text.charAt(i));
                if (recording) step(rec, "hash", text, pattern, 0, null, found, windowHash, patternHash);
            } else {
                windowHash = mod((windowHash - text.charAt(offset - 1) * high) * BASE + text.charAt(offset + m - 1));
                if (recording) step(rec, "roll", text, pattern, offset, null, found, windowHash, patternHash);
            }
            if (windowHash != patternHash) continue;
            int index = 0;  // a hash hit: the characters decide
            for (; index < m; index++) {
                if (recording) step(rec, "compare", text, pattern, offset, index, found, windowHash, patternHash);
                if (text.charAt(offset + index) != pattern.charAt(index)) break;
            }
            if (index == m) found.add((long) offset);
        }
        step(rec, "done", text, pattern, null, null, found, null, patternHash);
        return found.stream().mapToLong(Long::longValue).toArray();
    }

    static void step(Recorder rec, String action, String text, String pattern, Integer offset, Integer index,
                     List<Long> found, Long windowHash, long patternHash) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("text", text);
        fields.put("pattern", pattern);
        fields.put("offset", offset);
        fields.put("index", index);
        fields.put("found", new ArrayList<>(found));
        fields.put("window_hash", windowHash);
        fields.put("pattern_hash", patternHash);
        rec.step(action, fields);
    }
}
