#include <stdio.h>
#include <stdlib.h>

// One step line per comparison of two items.
static void compare(void) { fputs("@step {\"action\": \"compare\"}\n", stdout); }

static void merge_sort(long long *items, long long *scratch, size_t lo, size_t hi) {
  if (hi - lo < 2) return;
  size_t mid = lo + (hi - lo) / 2;
  merge_sort(items, scratch, lo, mid);
  merge_sort(items, scratch, mid, hi);
  size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    compare();
    scratch[k++] = items[i] <= items[j] ? items[i++] : items[j++];
  }
  while (i < mid) scratch[k++] = items[i++];
  while (j < hi) scratch[k++] = items[j++];
  for (size_t x = lo; x < hi; x++) items[x] = scratch[x];
}

int main(void) {
  size_t n = 0;
  if (scanf("%zu", &n) != 1) return 1;
  long long *items = calloc(n + 1, sizeof *items);
  long long *scratch = calloc(n + 1, sizeof *scratch);
  if (items == NULL || scratch == NULL) return 1;
  for (size_t i = 0; i < n; i++) {
    if (scanf("%lld", &items[i]) != 1) return 1;
  }
  merge_sort(items, scratch, 0, n);
  for (size_t i = 0; i < n; i++) printf(i ? " %lld" : "%lld", items[i]);
  printf("\n");
  free(items);
  free(scratch);
  return 0;
}
