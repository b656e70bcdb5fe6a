#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

#define UNREACHABLE 1000000000000000000LL

/* Writes a step: the table with null for a pair with no path known yet, the cell, the cells read. */
static void recordStep(dsa_recorder *rec, const char *action, long long **dist, long long n, const char *cell,
                       const char *reads) {
    size_t capacity = (size_t)(n * n) * 24 + 256;
    char *fields = malloc(capacity);
    size_t used = (size_t)sprintf(fields, "{\"table\":[");
    for (long long i = 0; i < n; i++) {
        used += (size_t)sprintf(fields + used, i ? ",[" : "[");
        for (long long j = 0; j < n; j++) {
            if (j) fields[used++] = ',';
            if (dist[i][j] == UNREACHABLE)
                used += (size_t)sprintf(fields + used, "null");
            else
                used += (size_t)sprintf(fields + used, "%lld", dist[i][j]);
        }
        fields[used++] = ']';
    }
    sprintf(fields + used, "],\"cell\":%s,\"reads\":%s}", cell, reads);
    dsa_step(rec, action, fields, NULL);
    free(fields);
}

long long **allPairs(long long n, long long **edges, int edgesSize, int *edgesColSize, int *returnSize, int **returnColumnSizes) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long **dist = malloc(sizeof *dist * (size_t)n);
    *returnColumnSizes = malloc(sizeof **returnColumnSizes * (size_t)n);
    for (long long i = 0; i < n; i++) {
        dist[i] = malloc(sizeof **dist * (size_t)n);
        for (long long j = 0; j < n; j++) dist[i][j] = i == j ? 0 : UNREACHABLE;
        (*returnColumnSizes)[i] = (int)n;
    }
    for (int e = 0; e < edgesSize; e++) {
        long long u = edges[e][0], v = edges[e][1], w = edges[e][2];
        if (w < dist[u][v]) dist[u][v] = w;
    }
    recordStep(&rec, "init", dist, n, "null", "[]");
    char cell[64], reads[128];
    for (long long k = 0; k < n; k++) { /* paths whose inner nodes are all below k + 1 */
        for (long long i = 0; i < n; i++) {
            for (long long j = 0; j < n; j++) {
                if (dist[i][k] == UNREACHABLE || dist[k][j] == UNREACHABLE) continue;
                long long through = dist[i][k] + dist[k][j];
                if (through < dist[i][j]) {
                    dist[i][j] = through;
                    sprintf(cell, "[%lld,%lld]", i, j);
                    sprintf(reads, "[[%lld,%lld],[%lld,%lld]]", i, k, k, j);
                    recordStep(&rec, "relax", dist, n, cell, reads);
                }
            }
        }
    }
    recordStep(&rec, "done", dist, n, "null", "[]");
    dsa_recorder_free(&rec);
    *returnSize = (int)n;
    return dist;
}
