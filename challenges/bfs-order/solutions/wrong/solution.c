#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

static int ascending(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

long long *bfsOrder(int **graph, int graphSize, int *graphColSize, long long source, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    /* Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it. */
    char *seen = calloc((size_t)graphSize + 1, 1);
    size_t capacity = 16;
    long long *queue = malloc(sizeof *queue * capacity);
    long long *order = malloc(sizeof *order * ((size_t)graphSize + 1));
    int *sorted = NULL;
    size_t head = 0, tail = 0;
    int taken = 0;
    queue[tail++] = source;
    dsa_discover(&rec, source, NULL);
    long long checks = 0;
    while (head < tail) {
        long long node = queue[head++];
        if (seen[node]) continue;
        seen[node] = 1;
        dsa_visit(&rec, node, NULL);
        order[taken++] = node;
        int degree = graphColSize[node];
        sorted = realloc(sorted, sizeof *sorted * ((size_t)degree + 1));
        memcpy(sorted, graph[node], sizeof *sorted * (size_t)degree);
        qsort(sorted, (size_t)degree, sizeof *sorted, ascending);
        for (int k = 0; k < degree; k++) {
            int neighbour = sorted[k];
            checks++;
            if (!seen[neighbour]) {
                if (tail == capacity) queue = realloc(queue, sizeof *queue * (capacity *= 2));
                queue[tail++] = neighbour;
                dsa_discover(&rec, neighbour, NULL);
            }
        }
    }
    printf("@count %lld\n", checks);
    fflush(stdout);
    free(sorted);
    free(queue);
    free(seen);
    dsa_recorder_free(&rec);
    *returnSize = taken;
    return order;
}
