import dsa.Recorder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

class Solution {
    public static long[] dijkstra(long n, long[][] edges, long source) {
        Recorder rec = new Recorder();
        int count = (int) n;
        long[][] sorted = edges.clone();
        // Each node's edges in ascending (node, weight) order: the order the steps follow.
        Arrays.sort(sorted, Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1])
            .thenComparingLong(e -> e[2]));
        Long[] dist = new Long[count];  // null: not reached yet
        boolean[] settled = new boolean[count];
        dist[(int) source] = 0L;
        while (true) {
            int node = -1;
            for (int v = 0; v < count; v++) {
                if (!settled[v] && dist[v] != null && (node < 0 || dist[v] < dist[node])) node = v;
            }
            if (node < 0) break;
            settled[node] = true;
            rec.step("settle", Map.of("current", node, "dist", Arrays.asList(dist)));
            for (long[] edge : sorted) {
                if (edge[0] != node) continue;
                int to = (int) edge[1];
                // Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too.
                long through = dist[node] + edge[2];
                boolean relaxed = dist[to] == null || through < dist[to];
                if (relaxed) dist[to] = through;
                rec.step("relax", Map.of("current", node, "dist", Arrays.asList(dist),
                    "edge", List.of(node, to, edge[2]), "relaxed", relaxed));
            }
        }
        long[] result = new long[count];
        for (int v = 0; v < count; v++) result[v] = dist[v] == null ? -1 : dist[v];
        return result;
    }
}
