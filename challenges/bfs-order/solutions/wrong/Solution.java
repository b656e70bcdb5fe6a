import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] bfsOrder(List<List<Integer>> graph, long source) {
        List<List<Integer>> neighbours = new ArrayList<>();
        for (List<Integer> adjacent : graph) {
            List<Integer> sorted = new ArrayList<>(adjacent);
            Collections.sort(sorted);
            neighbours.add(sorted);
        }
        Recorder rec = new Recorder();
        // Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
        boolean[] seen = new boolean[graph.size()];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add((int) source);
        rec.discover(source);
        List<Long> order = new ArrayList<>();
        long checks = 0;
        while (!queue.isEmpty()) {
            int node = queue.poll();
            if (seen[node]) continue;
            seen[node] = true;
            rec.visit(node);
            order.add((long) node);
            for (int neighbour : neighbours.get(node)) {
                checks++;
                if (!seen[neighbour]) {
                    queue.add(neighbour);
                    rec.discover(neighbour);
                }
            }
        }
        System.out.println("@count " + checks);
        return order.stream().mapToLong(Long::longValue).toArray();
    }
}
