#include <stdbool.h>
#include <stdlib.h>

#define UNREACHABLE 1000000000000000000LL

long long *shortestFrom(long long n, long long **edges, int edgesSize, int *edgesColSize, long long source, int *returnSize) {
    long long *dist = malloc(sizeof *dist * (size_t)n);
    for (long long v = 0; v < n; v++) dist[v] = UNREACHABLE;
    dist[source] = 0;
    for (long long round = 0; round < n - 1; round++) { /* a shortest path has at most n - 1 edges */
        bool changed = false;
        for (int e = 0; e < edgesSize; e++) {
            long long u = edges[e][0], v = edges[e][1], w = edges[e][2];
            /* Wrong on purpose: no check that u is reachable, so an edge out of an unreachable node relaxes its target (10^18 + w). */
            if (dist[u] + w < dist[v]) {
                dist[v] = dist[u] + w;
                changed = true;
            }
        }
        if (!changed) break;
    }
    for (int e = 0; e < edgesSize; e++) {
        long long u = edges[e][0], v = edges[e][1], w = edges[e][2];
        if (dist[u] + w < dist[v]) {
            *returnSize = 0; /* still relaxing after n - 1 rounds: a negative cycle is reachable */
            return dist;
        }
    }
    *returnSize = (int)n;
    return dist;
}
