#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long *topologicalOrder(long long n, long long **edges, int edgesSize, int *edgesColSize, int *returnSize) {
    (void)edgesColSize;
    int *count = calloc((size_t)n + 2, sizeof(int));
    int *inDegree = calloc((size_t)n + 1, sizeof(int));
    for (int k = 0; k < edgesSize; k++) {
        count[edges[k][0] + 1]++;
        inDegree[edges[k][1]]++;
    }
    // Successors in one array, task u's from start[u] (a prefix sum of the counts).
    for (long long task = 1; task <= n + 1; task++) count[task] += count[task - 1];
    int *start = malloc(sizeof(int) * ((size_t)n + 2));
    memcpy(start, count, sizeof(int) * ((size_t)n + 2));
    long long *successors = malloc(sizeof(long long) * ((size_t)edgesSize + 1));
    for (int k = 0; k < edgesSize; k++) successors[count[edges[k][0]]++] = edges[k][1];
    long long *order = malloc(sizeof(long long) * ((size_t)n + 1));
    int length = 0;
    for (long long task = 1; task <= n; task++)
        if (inDegree[task] == 0) order[length++] = task;
    for (int head = 0; head < length; head++) {
        long long task = order[head];
        for (int k = start[task]; k < start[task + 1]; k++)
            if (--inDegree[successors[k]] == 0) order[length++] = successors[k];
    }
    free(count);
    free(inDegree);
    free(start);
    free(successors);
    // Mistake: a cycle is never detected; the tasks on it are silently left out.
    *returnSize = length;
    return order;
}
