#include <stdio.h>
#include <stdlib.h>
#include <dsa/recorder.h>

long long *bfsOrder(int **graph, int graphSize, int *graphColSize, long long source, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    /* An adjacency matrix, row by row. */
    char *adjacent = calloc((size_t)graphSize * (size_t)graphSize + 1, 1);
    for (int node = 0; node < graphSize; node++) {
        for (int k = 0; k < graphColSize[node]; k++) adjacent[(size_t)node * (size_t)graphSize + (size_t)graph[node][k]] = 1;
    }
    char *seen = calloc((size_t)graphSize + 1, 1);
    long long *queue = malloc(sizeof *queue * ((size_t)graphSize + 1));
    int head = 0, tail = 0;
    seen[source] = 1;
    queue[tail++] = source;
    dsa_discover(&rec, source, NULL);
    long long checks = 0;
    while (head < tail) {
        long long node = queue[head++];
        dsa_visit(&rec, node, NULL);
        /* Too slow: every node is looked at, neighbour or not (n² checks instead of n + m). */
        for (int neighbour = 0; neighbour < graphSize; neighbour++) {
            checks++;
            if (adjacent[(size_t)node * (size_t)graphSize + (size_t)neighbour] && !seen[neighbour]) {
                seen[neighbour] = 1;
                queue[tail++] = neighbour;
                dsa_discover(&rec, neighbour, NULL);
            }
        }
    }
    printf("@count %lld\n", checks);
    fflush(stdout);
    free(adjacent);
    free(seen);
    dsa_recorder_free(&rec);
    *returnSize = tail;
    return queue;
}
