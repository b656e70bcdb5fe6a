#include <stdlib.h>

static void heapPush(long long *heap, int *size, long long value) {
    int i = (*size)++;
    heap[i] = value;
    while (i > 0 && heap[i] < heap[(i - 1) / 2]) {
        long long t = heap[i]; heap[i] = heap[(i - 1) / 2]; heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static long long heapPop(long long *heap, int *size) {
    long long top = heap[0];
    heap[0] = heap[--*size];
    for (int i = 0;;) {
        int left = 2 * i + 1, right = left + 1, smallest = i;
        if (left < *size && heap[left] < heap[smallest]) smallest = left;
        if (right < *size && heap[right] < heap[smallest]) smallest = right;
        if (smallest == i) break;
        long long t = heap[i]; heap[i] = heap[smallest]; heap[smallest] = t;
        i = smallest;
    }
    return top;
}

long long *courseOrder(long long n, long long **prerequisites, int prerequisitesSize, int *prerequisitesColSize, int *returnSize) {
    (void)prerequisitesColSize;
    /* The courses unlocked by f are unlocks[start[f] .. start[f + 1] - 1] (counting sort by f). */
    int *start = calloc((size_t)n + 1, sizeof *start);
    int *fill = malloc(sizeof *fill * (size_t)(n + 1));
    long long *unlocks = malloc(sizeof *unlocks * (size_t)(prerequisitesSize + 1));
    int *waiting = calloc((size_t)n + 1, sizeof *waiting); /* unmet prerequisites of each course */
    for (int i = 0; i < prerequisitesSize; i++) {
        start[prerequisites[i][1] + 1]++;
        waiting[prerequisites[i][0]]++;
    }
    for (long long f = 0; f < n; f++) start[f + 1] += start[f];
    for (long long f = 0; f < n; f++) fill[f] = start[f];
    for (int i = 0; i < prerequisitesSize; i++) unlocks[fill[prerequisites[i][1]]++] = prerequisites[i][0];
    long long *heap = malloc(sizeof *heap * (size_t)(n + 1)); /* a min-heap: the smallest ready course first */
    int size = 0;
    for (long long c = 0; c < n; c++)
        if (waiting[c] == 0) heapPush(heap, &size, c);
    long long *order = malloc(sizeof *order * (size_t)(n + 1));
    int taken = 0;
    while (size > 0) {
        long long c = heapPop(heap, &size);
        order[taken++] = c;
        for (int k = start[c]; k < start[c + 1]; k++)
            if (--waiting[unlocks[k]] == 0) heapPush(heap, &size, unlocks[k]);
    }
    free(start); free(fill); free(unlocks); free(waiting); free(heap);
    *returnSize = taken == n ? taken : 0; /* fewer: the rest wait on each other */
    return order;
}
