#include <stdio.h>
#include <stdlib.h>

// Prints count integers as a JSON array: "[1, 2, 3]".
void print_json_ints(const int *values, int count) {
  putchar('[');
  for (int k = 0; k < count; k++) printf(k > 0 ? ", %d" : "%d", values[k]);
  putchar(']');
}

// Prints one step line: "@step " and a JSON object with the step's fields. active holds
// active_count indices: step("compare", (int[]){0, 1}, 2, array, n); step("done", NULL, 0, array, n).
void step(const char *action, const int *active, int active_count, const int *array, int n) {
  printf("@step {\"action\": \"%s\", \"active\": ", action);
  print_json_ints(active, active_count);
  fputs(", \"array\": ", stdout);
  print_json_ints(array, n);
  fputs("}\n", stdout);
}

// Exchanges *a and *b.
void swap(int *a, int *b) {
  int held = *a;
  *a = *b;
  *b = held;
}

int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1 || n < 0) n = 0;
  int *array = malloc(sizeof *array * (size_t)n);
  if (n > 0 && array == NULL) return 1;
  for (int k = 0; k < n; k++) {
    if (scanf("%d", &array[k]) != 1) array[k] = 0;
  }
  // TODO: bubble sort, stopping after a pass without swaps. Report each comparison and swap, then the end:
  //   step("compare", (int[]){j, j + 1}, 2, array, n);
  //   step("swap", (int[]){j, j + 1}, 2, array, n);
  //   step("done", NULL, 0, array, n);
  for (int k = 0; k < n; k++) printf(k > 0 ? " %d" : "%d", array[k]);
  putchar('\n');
  free(array);
  return 0;
}
