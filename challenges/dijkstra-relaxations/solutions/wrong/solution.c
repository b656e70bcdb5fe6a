#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <dsa/recorder.h>

typedef struct { long long from, to, weight; } Edge;

static int byFromToWeight(const void *a, const void *b) {
    const Edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    return (x->weight > y->weight) - (x->weight < y->weight);
}

/* One step's fields as JSON: current, dist (null for -1: not reached yet), and a relax step's edge
   and relaxed (edge NULL for a settle step). */
static void step(dsa_recorder *rec, const char *action, long long current, const long long *dist, long long n,
                 const Edge *edge, bool relaxed) {
    char *fields = malloc(128 + 24 * (size_t)n);
    int at = sprintf(fields, "{\"current\":%lld,\"dist\":[", current);
    for (long long v = 0; v < n; v++) {
        if (dist[v] < 0) at += sprintf(fields + at, "%snull", v ? "," : "");
        else at += sprintf(fields + at, "%s%lld", v ? "," : "", dist[v]);
    }
    at += sprintf(fields + at, "]");
    if (edge) {
        at += sprintf(fields + at, ",\"edge\":[%lld,%lld,%lld],\"relaxed\":%s", edge->from, edge->to, edge->weight,
                      relaxed ? "true" : "false");
    }
    sprintf(fields + at, "}");
    dsa_step(rec, action, fields, NULL);
    free(fields);
}

long long *dijkstra(long long n, long long **edges, int edgesSize, int *edgesColSize, long long source,
                    int *returnSize) {
    (void)edgesColSize;
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    Edge *sorted = malloc(sizeof *sorted * (size_t)(edgesSize + 1));
    for (int k = 0; k < edgesSize; k++) sorted[k] = (Edge){edges[k][0], edges[k][1], edges[k][2]};
    qsort(sorted, (size_t)edgesSize, sizeof *sorted, byFromToWeight);
    long long *dist = malloc(sizeof *dist * (size_t)(n + 1));
    bool *settled = calloc((size_t)n + 1, sizeof *settled);
    for (long long v = 0; v < n; v++) dist[v] = -1;
    dist[source] = 0;
    for (;;) {
        long long node = -1;
        for (long long v = 0; v < n; v++) {
            if (!settled[v] && dist[v] >= 0 && (node < 0 || dist[v] < dist[node])) node = v;
        }
        if (node < 0) break;
        settled[node] = true;
        step(&rec, "settle", node, dist, n, NULL, false);
        for (int k = 0; k < edgesSize; k++) {
            const Edge *edge = &sorted[k];
            if (edge->from != node) continue;
            /* Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too. */
            long long through = dist[node] + edge->weight;
            bool relaxed = dist[edge->to] < 0 || through < dist[edge->to];
            if (relaxed) dist[edge->to] = through;
            step(&rec, "relax", node, dist, n, edge, relaxed);
        }
    }
    free(sorted);
    free(settled);
    dsa_recorder_free(&rec);
    *returnSize = (int)n;
    return dist;
}
