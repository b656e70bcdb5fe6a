#include <stdlib.h>

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
    /* Wrong on purpose: a FIFO queue, so a course freed later comes after bigger ones that waited. */
    long long *order = malloc(sizeof *order * (size_t)(n + 1));
    int taken = 0;
    for (long long c = 0; c < n; c++)
        if (waiting[c] == 0) order[taken++] = c;
    for (int head = 0; head < taken; head++) {
        long long c = order[head];
        for (int k = start[c]; k < start[c + 1]; k++)
            if (--waiting[unlocks[k]] == 0) order[taken++] = unlocks[k];
    }
    free(start); free(fill); free(unlocks); free(waiting);
    *returnSize = taken == n ? taken : 0; /* fewer: the rest wait on each other */
    return order;
}
