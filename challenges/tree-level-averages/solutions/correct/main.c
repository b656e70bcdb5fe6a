#include <stdio.h>
#include <stdlib.h>

// calloc that ends the program when memory runs out (and never returns NULL for 0 items).
void *allocate(size_t count, size_t size) {
  void *memory = calloc(count > 0 ? count : 1, size);
  if (memory == NULL) {
    fputs("out of memory\n", stderr);
    exit(1);
  }
  return memory;
}

int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1 || n < 0) return 1;
  long long *values = allocate((size_t)n, sizeof *values);
  int *parents = allocate((size_t)n, sizeof *parents);
  for (int k = 0; k < n; k++) {
    if (scanf("%lld", &values[k]) != 1) return 1;
  }
  for (int k = 0; k < n; k++) {
    if (scanf("%d", &parents[k]) != 1) return 1;
  }
  // Child lists in one array: node u's children are children[first[u]] to children[first[u + 1] - 1].
  int *first = allocate((size_t)n + 1, sizeof *first);
  for (int child = 0; child < n; child++) {
    if (parents[child] >= 0) first[parents[child] + 1]++;
  }
  for (int u = 0; u < n; u++) first[u + 1] += first[u];
  int *children = allocate((size_t)n, sizeof *children);
  int *filled = allocate((size_t)n, sizeof *filled);
  for (int child = 0; child < n; child++) {
    int parent = parents[child];
    if (parent >= 0) children[first[parent] + filled[parent]++] = child;
  }

  // queue holds the nodes level by level: level_start to level_end - 1 is the current level.
  int *queue = allocate((size_t)n, sizeof *queue);
  int queued = 0;
  if (n > 0) queue[queued++] = 0;
  for (int level_start = 0; level_start < queued;) {
    int level_end = queued;
    long long sum = 0;
    for (int k = level_start; k < level_end; k++) {
      int node = queue[k];
      sum += values[node];
      for (int c = first[node]; c < first[node + 1]; c++) queue[queued++] = children[c];
    }
    printf("%.9f\n", (double)sum / (level_end - level_start));
    level_start = level_end;
  }
  free(values);
  free(parents);
  free(first);
  free(children);
  free(filled);
  free(queue);
  return 0;
}
