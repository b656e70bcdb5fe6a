#include <stdio.h>
#include <stdlib.h>

/* Slow on purpose: no union by size and no path compression, so the trees can grow as tall as a
   chain and each find walks all of it. */
static long long find(long long *parent, long long x, long long *hops) {
    while (parent[x] != x) {
        x = parent[x];
        (*hops)++;
    }
    return x;
}

long long countComponents(long long n, long long **edges, int edgesSize, int *edgesColSize) {
    (void)edgesColSize;
    long long *parent = malloc(sizeof *parent * (size_t)(n + 1));
    for (long long i = 0; i < n; i++) parent[i] = i;
    long long components = n;
    long long hops = 0;
    for (int i = 0; i < edgesSize; i++) {
        long long a = find(parent, edges[i][0], &hops), b = find(parent, edges[i][1], &hops);
        if (a != b) {
            parent[a] = b;
            components--;
        }
    }
    free(parent);
    printf("@count %lld\n", hops);
    fflush(stdout);
    return components;
}
