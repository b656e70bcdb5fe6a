#include <stdio.h>
#include <stdlib.h>

// One step line per comparison of two items.
static void compare(void) { fputs("@step {\"action\": \"compare\"}\n", stdout); }

int main(void) {
  // Insertion sort: right answers, but about n²/4 comparisons on random input.
  size_t n = 0;
  if (scanf("%zu", &n) != 1) return 1;
  long long *items = calloc(n + 1, sizeof *items);
  if (items == NULL) return 1;
  for (size_t i = 0; i < n; i++) {
    if (scanf("%lld", &items[i]) != 1) return 1;
  }
  for (size_t i = 1; i < n; i++) {
    for (size_t j = i; j > 0; j--) {
      compare();
      if (items[j - 1] <= items[j]) break;
      long long held = items[j - 1];
      items[j - 1] = items[j];
      items[j] = held;
    }
  }
  for (size_t i = 0; i < n; i++) printf(i ? " %lld" : "%lld", items[i]);
  printf("\n");
  free(items);
  return 0;
}
