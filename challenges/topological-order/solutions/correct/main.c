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
  int n = 0, m = 0;
  if (scanf("%d %d", &n, &m) != 2 || n < 1 || m < 0) return 1;
  int *befores = allocate((size_t)m, sizeof *befores);
  int *afters = allocate((size_t)m, sizeof *afters);
  for (int k = 0; k < m; k++) {
    if (scanf("%d %d", &befores[k], &afters[k]) != 2) return 1;
  }
  // Successor lists in one array: task u's successors are successors[first[u]] to
  // successors[first[u + 1] - 1].
  int *first = allocate((size_t)n + 2, sizeof *first);
  int *in_degree = allocate((size_t)n + 1, sizeof *in_degree);
  for (int k = 0; k < m; k++) {
    first[befores[k] + 1]++;
    in_degree[afters[k]]++;
  }
  for (int u = 1; u <= n; u++) first[u + 1] += first[u];
  int *successors = allocate((size_t)m, sizeof *successors);
  int *filled = allocate((size_t)n + 1, sizeof *filled);
  for (int k = 0; k < m; k++) successors[first[befores[k]] + filled[befores[k]]++] = afters[k];

  int *order = allocate((size_t)n, sizeof *order);
  int order_count = 0;
  for (int node = 1; node <= n; node++) {
    if (in_degree[node] == 0) order[order_count++] = node;
  }
  // order doubles as the queue: the nodes after index head are ready but not yet expanded.
  for (int head = 0; head < order_count; head++) {
    int node = order[head];
    for (int k = first[node]; k < first[node + 1]; k++) {
      if (--in_degree[successors[k]] == 0) order[order_count++] = successors[k];
    }
  }
  // Tasks on or behind a cycle never reach in-degree 0.
  if (order_count != n) {
    puts("IMPOSSIBLE");
  } else {
    for (int k = 0; k < order_count; k++) printf(k > 0 ? " %d" : "%d", order[k]);
    putchar('\n');
  }
  free(befores);
  free(afters);
  free(first);
  free(in_degree);
  free(successors);
  free(filled);
  free(order);
  return 0;
}
