import java.util.*;

class Solution {
    public static long countComponents(long n, long[][] edges) {
        int[] parent = new int[(int) n];
        for (int i = 0; i < n; i++) parent[i] = i;
        // Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it.
        for (long[] edge : edges) parent[(int) edge[1]] = find(parent, (int) edge[0]);
        long roots = 0;
        for (int x = 0; x < n; x++) if (parent[x] == x) roots++;
        return roots;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) x = parent[x];
        return x;
    }
}
