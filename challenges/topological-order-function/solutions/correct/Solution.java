import java.util.*;

class Solution {
    public static long[] topologicalOrder(long n, long[][] edges) {
        int size = (int) n;
        List<List<Integer>> successors = new ArrayList<>();
        for (int task = 0; task <= size; task++) successors.add(new ArrayList<>());
        int[] inDegree = new int[size + 1];
        for (long[] edge : edges) {
            successors.get((int) edge[0]).add((int) edge[1]);
            inDegree[(int) edge[1]]++;
        }
        long[] order = new long[size];
        int length = 0;
        for (int task = 1; task <= size; task++) if (inDegree[task] == 0) order[length++] = task;
        for (int head = 0; head < length; head++)
            for (int after : successors.get((int) order[head])) if (--inDegree[after] == 0) order[length++] = after;
        // Tasks left out lie on a cycle: no order exists.
        return length == size ? order : new long[0];
    }
}
