#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

// Prints one step line: "@step " and a JSON object with the step's fields. A distance of -1 (not
// reached yet) prints as null; a settle step passes no edge (NULL), so it has no edge or relaxed
// field: step("settle", node, dist, n, NULL, false);
// step("relax", node, dist, n, (int[]){node, to, weight}, relaxed).
void step(const char *action, int current, const int *dist, int n, const int *edge, bool relaxed) {
  printf("@step {\"action\": \"%s\", \"current\": %d, \"dist\": [", action, current);
  for (int k = 0; k < n; k++) {
    if (k > 0) fputs(", ", stdout);
    if (dist[k] < 0) {
      fputs("null", stdout);
    } else {
      printf("%d", dist[k]);
    }
  }
  putchar(']');
  if (edge != NULL) {
    printf(", \"edge\": [%d, %d, %d], \"relaxed\": %s", edge[0], edge[1], edge[2],
           relaxed ? "true" : "false");
  }
  fputs("}\n", stdout);
}

// Reads the next integer of the input (0 when there is none).
int read_int(void) {
  int value = 0;
  if (scanf("%d", &value) != 1) return 0;
  return value;
}

// calloc that ends the program when memory runs out (and never returns NULL for 0 items).
void *allocate(size_t count, size_t size) {
  void *memory = calloc(count > 0 ? count : 1, size);
  if (memory == NULL) {
    fputs("out of memory\n", stderr);
    exit(1);
  }
  return memory;
}

typedef struct {
  int from;
  int to;
  int weight;
} Edge;

// Orders edges by (from, to, weight).
int compare_edges(const void *a, const void *b) {
  const Edge *x = a;
  const Edge *y = b;
  if (x->from != y->from) return (x->from > y->from) - (x->from < y->from);
  if (x->to != y->to) return (x->to > y->to) - (x->to < y->to);
  return (x->weight > y->weight) - (x->weight < y->weight);
}

int main(void) {
  int n = read_int();
  int m = read_int();
  int source = read_int();
  Edge *edges = allocate((size_t)m, sizeof *edges);
  for (int k = 0; k < m; k++) {
    edges[k].from = read_int();
    edges[k].to = read_int();
    edges[k].weight = read_int();
  }
  // Sorted, node u's outgoing edges are edges[first[u]] to edges[first[u + 1] - 1], in ascending
  // order of (to, weight).
  qsort(edges, (size_t)m, sizeof *edges, compare_edges);
  int *first = allocate((size_t)n + 1, sizeof *first);
  for (int k = 0; k < m; k++) first[edges[k].from + 1]++;
  for (int u = 0; u < n; u++) first[u + 1] += first[u];

  int *dist = allocate((size_t)n, sizeof *dist);
  for (int v = 0; v < n; v++) dist[v] = -1;  // -1: not reached yet
  dist[source] = 0;
  bool *settled = allocate((size_t)n, sizeof *settled);
  while (true) {
    int node = -1;
    for (int v = 0; v < n; v++) {
      if (!settled[v] && dist[v] >= 0 && (node < 0 || dist[v] < dist[node])) node = v;
    }
    if (node < 0) break;
    settled[node] = true;
    step("settle", node, dist, n, NULL, false);
    for (int k = first[node]; k < first[node + 1]; k++) {
      int to = edges[k].to;
      int weight = edges[k].weight;
      if (settled[to]) continue;
      int through = dist[node] + weight;
      bool relaxed = dist[to] < 0 || through < dist[to];
      if (relaxed) dist[to] = through;
      step("relax", node, dist, n, (int[]){node, to, weight}, relaxed);
    }
  }
  free(settled);
  for (int k = 0; k < n; k++) printf(k > 0 ? " %d" : "%d", dist[k]);
  putchar('\n');
  free(edges);
  free(first);
  free(dist);
  return 0;
}
