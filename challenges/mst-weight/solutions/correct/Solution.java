import java.util.*;

class Solution {
    public static long mstWeight(long n, long[][] edges) {
        int[] parent = new int[(int) n];
        for (int i = 0; i < n; i++) parent[i] = i;
        long[][] sorted = edges.clone();
        Arrays.sort(sorted, (a, b) -> Long.compare(a[2], b[2])); // Kruskal: cheapest edges first
        long total = 0, joined = 0;
        for (long[] edge : sorted) {
            int a = find(parent, (int) edge[0]), b = find(parent, (int) edge[1]);
            if (a != b) { // joins two components, so it makes no cycle
                parent[a] = b;
                total += edge[2];
                joined++;
            }
        }
        return joined == n - 1 ? total : -1;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]]; // path halving
            x = parent[x];
        }
        return x;
    }
}
