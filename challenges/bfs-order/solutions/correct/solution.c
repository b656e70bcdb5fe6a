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
    char *seen = calloc((size_t)graphSize + 1, 1);
    long long *queue = malloc(sizeof *queue * ((size_t)graphSize + 1));
    int *sorted = NULL;
    int head = 0, tail = 0;
    seen[source] = 1;
    queue[tail++] = source;
    dsa_discover(&rec, source, NULL);
    /* Every neighbour looked at is counted, for the growth grade (@count). */
    long long checks = 0;
    while (head < tail) {
        long long node = queue[head++];
        int degree = graphColSize[node];
        dsa_visit(&rec, node, NULL);
        sorted = realloc(sorted, sizeof *sorted * ((size_t)degree + 1));
        memcpy(sorted, graph[node], sizeof *sorted * (size_t)degree);
        qsort(sorted, (size_t)degree, sizeof *sorted, ascending);
        for (int k = 0; k < degree; k++) {
            int neighbour = sorted[k];
            checks++;
            if (!seen[neighbour]) {
                seen[neighbour] = 1;
                queue[tail++] = neighbour;
                dsa_discover(&rec, neighbour, NULL);
            }
        }
    }
    printf("@count %lld\n", checks);
    fflush(stdout);
    free(sorted);
    free(seen);
    dsa_recorder_free(&rec);
    *returnSize = tail;
    return queue;
}
