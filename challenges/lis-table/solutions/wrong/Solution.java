import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] lisTable(long[] items) {
        Recorder rec = new Recorder();
        int n = items.length;
        Long[] best = new Long[n]; // best[i]: the longest increasing run ending at item i; null while not filled
        for (int i = 0; i < n; i++) {
            List<List<Integer>> reads = new ArrayList<>();
            long longest = 0;
            for (int j = 0; j < i; j++) {
                if (items[j] <= items[i]) { // wrong: an equal item extends a run
                    reads.add(List.of(j));
                    longest = Math.max(longest, best[j]);
                }
            }
            best[i] = longest + 1;
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("table", Arrays.asList(best));
            fields.put("cell", List.of(i));
            fields.put("reads", reads);
            rec.step("fill", fields, "best[" + i + "] = " + best[i]);
        }
        long[] table = new long[n];
        for (int i = 0; i < n; i++) table[i] = best[i];
        return table;
    }
}
