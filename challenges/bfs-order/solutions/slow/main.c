#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

// Prints count integers as a JSON array: "[1, 2, 3]".
void print_json_ints(const int *values, int count) {
  putchar('[');
  for (int k = 0; k < count; k++) printf(k > 0 ? ", %d" : "%d", values[k]);
  putchar(']');
}

// Marks the first step, which has no current node: it prints as null.
#define NO_CURRENT (-1)

// Prints one step line: "@step " and a JSON object with the step's fields.
void step(int current, const int *visited, int visited_count, const int *frontier, int frontier_count) {
  fputs("@step {\"current\": ", stdout);
  if (current == NO_CURRENT) {
    fputs("null", stdout);
  } else {
    printf("%d", current);
  }
  fputs(", \"visited\": ", stdout);
  print_json_ints(visited, visited_count);
  fputs(", \"frontier\": ", stdout);
  print_json_ints(frontier, frontier_count);
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

int compare_ints(const void *a, const void *b) {
  int x = *(const int *)a;
  int y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(void) {
  int n = read_int();
  int m = read_int();
  int source = read_int();
  int *ends = allocate(2 * (size_t)m, sizeof *ends);  // edge k joins ends[2k] and ends[2k + 1]
  for (int k = 0; k < 2 * m; k++) ends[k] = read_int();
  // Adjacency lists in one array: node u's neighbours are neighbours[first[u]] to
  // neighbours[first[u + 1] - 1], in ascending order.
  int *first = allocate((size_t)n + 1, sizeof *first);
  for (int k = 0; k < 2 * m; k++) first[ends[k] + 1]++;
  for (int u = 0; u < n; u++) first[u + 1] += first[u];
  int *neighbours = allocate(2 * (size_t)m, sizeof *neighbours);
  int *filled = allocate((size_t)n, sizeof *filled);
  for (int k = 0; k < 2 * m; k++) {
    int u = ends[k];
    neighbours[first[u] + filled[u]++] = ends[k ^ 1];
  }
  for (int u = 0; u < n; u++) {
    qsort(neighbours + first[u], (size_t)(first[u + 1] - first[u]), sizeof *neighbours, compare_ints);
  }

  bool *matrix = allocate((size_t)n * (size_t)n, sizeof *matrix);  // matrix[u * n + v]: an edge joins u and v
  for (int k = 0; k < 2 * m; k++) matrix[(size_t)ends[k] * (size_t)n + (size_t)ends[k ^ 1]] = true;
  // The queue keeps every node ever queued: it is the visited order, and its tail from head the frontier.
  bool *seen = allocate((size_t)n, sizeof *seen);
  int *queue = allocate((size_t)n, sizeof *queue);
  int head = 0;
  int tail = 0;
  seen[source] = true;
  queue[tail++] = source;
  step(NO_CURRENT, queue, tail, queue + head, tail - head);
  // Every neighbour looked at is counted, for the growth grade (@count).
  long long checks = 0;
  while (head < tail) {
    int node = queue[head++];
    // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
    for (int neighbour = 0; neighbour < n; neighbour++) {
      checks++;
      if (matrix[(size_t)node * (size_t)n + (size_t)neighbour] && !seen[neighbour]) {
        seen[neighbour] = true;
        queue[tail++] = neighbour;
      }
    }
    step(node, queue, tail, queue + head, tail - head);
  }
  printf("@count %lld\n", checks);
  for (int k = 0; k < tail; k++) printf(k > 0 ? " %d" : "%d", queue[k]);
  putchar('\n');
  free(seen);
  free(queue);
  free(matrix);
  free(ends);
  free(first);
  free(neighbours);
  free(filled);
  return 0;
}
