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
        boolean[] seen = new boolean[graph.size()];
        seen[(int) source] = true;
        long[] queue = new long[graph.size()];
        int head = 0, tail = 0;
        queue[tail++] = source;
        rec.discover(source);
        // Every neighbour looked at is counted, for the growth grade (@count).
        long checks = 0;
        while (head < tail) {
            int node = (int) queue[head++];
            rec.visit(node);
            for (int neighbour : neighbours.get(node)) {
                checks++;
                if (!seen[neighbour]) {
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
