#include <stdio.h>
#include <stdlib.h>

// One step line per item looked at.
static void probe(long long index) { printf("@step {\"action\": \"probe\", \"index\": %lld}\n", index); }

int main(void) {
  long long n = 0, target = 0;
  if (scanf("%lld", &n) != 1 || n < 0) return 1;
  long long *items = calloc((size_t)n + 1, sizeof *items);
  if (items == NULL) return 1;
  for (long long i = 0; i < n; i++) {
    if (scanf("%lld", &items[i]) != 1) return 1;
  }
  if (scanf("%lld", &target) != 1) return 1;
  long long answer = -1;
  long long low = 0, high = n - 1;
  while (low <= high) {
    long long middle = low + (high - low) / 2;
    probe(middle);
    if (items[middle] == target) {
      answer = middle;
      break;
    }
    if (items[middle] < target) {
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  printf("%lld\n", answer);
  free(items);
  return 0;
}
