import dsa.Recorder;
import java.util.*;

class Solution {
    static final long UNREACHABLE = 1_000_000_000_000_000_000L;

    // A step's fields: the table with null for a pair with no path known yet, the cell, the cells read.
    static Map<String, Object> fields(long[][] dist, Object cell, Object reads) {
        List<List<Long>> table = new ArrayList<>();
        for (long[] row : dist) {
            List<Long> shown = new ArrayList<>();
            for (long d : row) shown.add(d == UNREACHABLE ? null : d);
            table.add(shown);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("table", table);
        fields.put("cell", cell);
        fields.put("reads", reads);
        return fields;
    }

    public static long[][] allPairs(long n, long[][] edges) {
        Recorder rec = new Recorder();
        int size = (int) n;
        long[][] dist = new long[size][size];
        for (int i = 0; i < size; i++) {
            Arrays.fill(dist[i], UNREACHABLE);
            dist[i][i] = 0;
        }
        for (long[] edge : edges) {
            int u = (int) edge[0], v = (int) edge[1];
            dist[u][v] = Math.min(dist[u][v], edge[2]);
        }
        rec.step("init", fields(dist, null, List.of()), "0 on the diagonal, each edge's weight");
        // Wrong on purpose: the round k is the innermost loop, so dist[i][k] and dist[k][j] are used before they are final.
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                for (int k = 0; k < size; k++) {
                    if (dist[i][k] == UNREACHABLE || dist[k][j] == UNREACHABLE) continue;
                    long through = dist[i][k] + dist[k][j];
                    if (through < dist[i][j]) {
                        dist[i][j] = through;
                        rec.step("relax", fields(dist, List.of(i, j), List.of(List.of(i, k), List.of(k, j))),
                                i + " to " + j + " through " + k + ": " + through);
                    }
                }
            }
        }
        rec.step("done", fields(dist, null, List.of()), "Every pair's shortest distance");
        return dist;
    }
}
