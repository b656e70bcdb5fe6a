import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] bfsOrder(List<List<Integer>> graph, long source) {
        List<Set<Integer>> neighbourSets = new ArrayList<>();
        for (List<Integer> adjacent : graph) neighbourSets.add(new HashSet<>(adjacent));
        Recorder rec = new Recorder();
        boolean[] seen = new boolean[graph.size()];
        seen[(int) source] = true;
        long[] queue = new long[graph.size()];
        int head = 0, tail = 0;
        queue[tail++] = source;
        rec.discover(source);
        long checks = 0;
        while (head < tail) {
            int node = (int) queue[head++];
            rec.visit(node);
            // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
            for (int neighbour = 0; neighbour < graph.size(); neighbour++) {
                checks++;
                if (neighbourSets.get(node).contains(neighbour) && !seen[neighbour]) {
                    seen[neighbour] = true;
                    queue[tail++] = neighbour;
                    rec.discover(neighbour);
                }
            }
        }
        System.out.println("@count " + checks);
        return Arrays.copyOf(queue, tail);
    }
}
