#include <stdlib.h>

static int byWeight(const void *a, const void *b) {
    long long x = (*(long long *const *)a)[2], y = (*(long long *const *)b)[2];
    return x < y ? -1 : x > y;
}

static long long find(long long *parent, long long x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; /* path halving */
        x = parent[x];
    }
    return x;
}

long long mstWeight(long long n, long long **edges, int edgesSize, int *edgesColSize) {
    (void)edgesColSize;
    long long *parent = malloc(sizeof *parent * (size_t)n);
    for (long long i = 0; i < n; i++) parent[i] = i;
    qsort(edges, (size_t)edgesSize, sizeof *edges, byWeight); /* Kruskal: cheapest edges first */
    long long total = 0, joined = 0;
    for (int i = 0; i < edgesSize; i++) {
        long long a = find(parent, edges[i][0]), b = find(parent, edges[i][1]);
        if (a != b) { /* joins two components, so it makes no cycle */
            parent[a] = b;
            total += edges[i][2];
            joined++;
        }
    }
    free(parent);
    (void)joined;
    return total; /* Wrong on purpose: a disconnected graph returns its forest's weight, not -1. */
}
