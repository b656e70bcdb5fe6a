import java.util.*;

class Solution {
    private static long hops; // parent pointers followed by find, for the growth grade

    public static long countComponents(long n, long[][] edges) {
        int[] parent = new int[(int) n];
        int[] size = new int[(int) n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
            size[i] = 1;
        }
        hops = 0;
        long components = n;
        for (long[] edge : edges) {
            int a = find(parent, (int) edge[0]), b = find(parent, (int) edge[1]);
            if (a == b) continue;
            if (size[a] < size[b]) {
                int t = a;
                a = b;
                b = t;
            }
            parent[b] = a; // the smaller tree goes under the larger one's root
            size[a] += size[b];
            components--;
        }
        System.out.println("@count " + hops);
        return components;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]]; // path halving
            x = parent[x];
            hops++;
        }
        return x;
    }
}
