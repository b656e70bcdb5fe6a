#include <stdlib.h>

static long long find(long long *parent, long long x) {
    while (parent[x] != x) x = parent[x];
    return x;
}

long long countComponents(long long n, long long **edges, int edgesSize, int *edgesColSize) {
    (void)edgesColSize;
    long long *parent = malloc(sizeof *parent * (size_t)(n + 1));
    for (long long i = 0; i < n; i++) parent[i] = i;
    /* Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it. */
    for (int i = 0; i < edgesSize; i++) parent[edges[i][1]] = find(parent, edges[i][0]);
    long long roots = 0;
    for (long long x = 0; x < n; x++) roots += parent[x] == x;
    free(parent);
    return roots;
}
