import java.util.*;

class Solution {
    private static long hops;

    // Slow on purpose: no union by size and no path compression, so the trees can grow as tall as a
    // chain and each find walks all of it.
    public static long countComponents(long n, long[][] edges) {
        int[] parent = new int[(int) n];
        for (int i = 0; i < n; i++) parent[i] = i;
        hops = 0;
        long components = n;
        for (long[] edge : edges) {
            int a = find(parent, (int) edge[0]), b = find(parent, (int) edge[1]);
            if (a != b) {
                parent[a] = b;
                components--;
            }
        }
        System.out.println("@count " + hops);
        return components;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            x = parent[x];
            hops++;
        }
        return x;
    }
}
