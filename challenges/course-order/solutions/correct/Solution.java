import java.util.*;

class Solution {
    public static long[] courseOrder(long n, long[][] prerequisites) {
        int count = (int) n;
        List<List<Integer>> unlocks = new ArrayList<>();
        for (int i = 0; i < count; i++) unlocks.add(new ArrayList<>());
        int[] waiting = new int[count]; // unmet prerequisites of each course
        for (long[] pair : prerequisites) {
            unlocks.get((int) pair[1]).add((int) pair[0]);
            waiting[(int) pair[0]]++;
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>(); // the smallest ready course first
        for (int c = 0; c < count; c++) if (waiting[c] == 0) ready.add(c);
        long[] order = new long[count];
        int taken = 0;
        while (!ready.isEmpty()) {
            int c = ready.poll();
            order[taken++] = c;
            for (int next : unlocks.get(c)) if (--waiting[next] == 0) ready.add(next);
        }
        return taken == count ? order : new long[0]; // fewer: the rest wait on each other
    }
}
