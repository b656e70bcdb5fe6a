import java.util.*;

class Solution {
    public static long[] shortestDistances(long n, long[][] edges, long source) {
        List<List<long[]>> adjacency = new ArrayList<>();
        for (int i = 0; i < n; i++) adjacency.add(new ArrayList<>());
        for (long[] edge : edges) adjacency.get((int) edge[0]).add(new long[] {edge[1], edge[2]});
        long[] dist = new long[(int) n];
        Arrays.fill(dist, -1);
        PriorityQueue<long[]> heap = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        dist[(int) source] = 0;
        heap.add(new long[] {0, source});
        while (!heap.isEmpty()) {
            long[] top = heap.poll();
            for (long[] link : adjacency.get((int) top[1])) {
                if (dist[(int) link[0]] == -1) {
                    // Wrong on purpose: a node's distance is fixed when it is first seen, not when it is popped.
                    dist[(int) link[0]] = top[0] + link[1];
                    heap.add(new long[] {top[0] + link[1], link[0]});
                }
            }
        }
        return dist;
    }
}
