#include <stdio.h>
#include <stdlib.h>

static long long find(long long *parent, long long x, long long *hops) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; /* path halving */
        x = parent[x];
        (*hops)++;
    }
    return x;
}

long long countComponents(long long n, long long **edges, int edgesSize, int *edgesColSize) {
    (void)edgesColSize;
    long long *parent = malloc(sizeof *parent * (size_t)(n + 1));
    long long *size = malloc(sizeof *size * (size_t)(n + 1));
    for (long long i = 0; i < n; i++) {
        parent[i] = i;
        size[i] = 1;
    }
    long long components = n;
    long long hops = 0; /* parent pointers followed by find, for the growth grade */
    for (int i = 0; i < edgesSize; i++) {
        long long a = find(parent, edges[i][0], &hops), b = find(parent, edges[i][1], &hops);
        if (a == b) continue;
        if (size[a] < size[b]) {
            long long t = a; a = b; b = t;
        }
        parent[b] = a; /* the smaller tree goes under the larger one's root */
        size[a] += size[b];
        components--;
    }
    free(parent);
    free(size);
    printf("@count %lld\n", hops);
    fflush(stdout);
    return components;
}
