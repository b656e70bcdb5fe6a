#include <stdlib.h>

typedef struct { long long dist, node; } Item;

static void heapPush(Item *heap, int *size, Item item) {
    int i = (*size)++;
    heap[i] = item;
    while (i > 0 && heap[i].dist < heap[(i - 1) / 2].dist) {
        Item t = heap[i]; heap[i] = heap[(i - 1) / 2]; heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static Item heapPop(Item *heap, int *size) {
    Item top = heap[0];
    heap[0] = heap[--*size];
    for (int i = 0;;) {
        int left = 2 * i + 1, right = left + 1, smallest = i;
        if (left < *size && heap[left].dist < heap[smallest].dist) smallest = left;
        if (right < *size && heap[right].dist < heap[smallest].dist) smallest = right;
        if (smallest == i) break;
        Item t = heap[i]; heap[i] = heap[smallest]; heap[smallest] = t;
        i = smallest;
    }
    return top;
}

long long *shortestDistances(long long n, long long **edges, int edgesSize, int *edgesColSize, long long source, int *returnSize) {
    (void)edgesColSize;
    /* The outgoing links of u are links[start[u] .. start[u + 1] - 1] (counting sort by u). */
    int *start = calloc((size_t)n + 1, sizeof *start);
    int *links = malloc(sizeof *links * (size_t)(edgesSize + 1));
    for (int i = 0; i < edgesSize; i++) start[edges[i][0] + 1]++;
    for (long long u = 0; u < n; u++) start[u + 1] += start[u];
    int *fill = malloc(sizeof *fill * (size_t)(n + 1));
    for (long long u = 0; u < n; u++) fill[u] = start[u];
    for (int i = 0; i < edgesSize; i++) links[fill[edges[i][0]]++] = i;
    long long *dist = malloc(sizeof *dist * (size_t)n);
    for (long long u = 0; u < n; u++) dist[u] = -1;
    Item *heap = malloc(sizeof *heap * (size_t)(edgesSize + 1));
    int size = 0;
    heapPush(heap, &size, (Item){0, source});
    while (size > 0) {
        Item top = heapPop(heap, &size);
        if (dist[top.node] != -1) continue; /* settled already, by a shorter path */
        dist[top.node] = top.dist;
        for (int k = start[top.node]; k < start[top.node + 1]; k++) {
            long long *e = edges[links[k]];
            if (dist[e[1]] == -1) heapPush(heap, &size, (Item){top.dist + e[2], e[1]});
        }
    }
    free(start); free(links); free(fill); free(heap);
    *returnSize = (int)n;
    return dist;
}
