import java.util.*;

class Solution {
    static final long UNREACHABLE = 1_000_000_000_000_000_000L;

    public static long[] shortestFrom(long n, long[][] edges, long source) {
        long[] dist = new long[(int) n];
        Arrays.fill(dist, UNREACHABLE);
        dist[(int) source] = 0;
        for (long round = 0; round < n - 1; round++) {  // a shortest path has at most n - 1 edges
            boolean changed = false;
            for (long[] edge : edges) {
                int u = (int) edge[0], v = (int) edge[1];
                if (dist[u] != UNREACHABLE && dist[u] + edge[2] < dist[v]) {
                    dist[v] = dist[u] + edge[2];
                    changed = true;
                }
            }
            if (!changed) break;
        }
        for (long[] edge : edges) {
            int u = (int) edge[0], v = (int) edge[1];
            // Still relaxing after n - 1 rounds: a negative cycle is reachable.
            if (dist[u] != UNREACHABLE && dist[u] + edge[2] < dist[v]) return new long[0];
        }
        return dist;
    }
}
