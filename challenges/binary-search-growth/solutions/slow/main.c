#include <stdio.h>
#include <stdlib.h>

// One step line per item looked at.
static void probe(long long index) { printf("@step {\"action\": \"probe\", \"index\": %lld}\n", index); }

int main(void) {
  // A scan from the start: right answers, about n probes.
  long long n = 0, target = 0;
  if (scanf("%lld", &n) != 1 || n < 0) return 1;
  long long *items = calloc((size_t)n + 1, sizeof *items);
  if (items == NULL) return 1;
  for (long long i = 0; i < n; i++) {
    if (scanf("%lld", &items[i]) != 1) return 1;
  }
  if (scanf("%lld", &target) != 1) return 1;
  long long answer = -1;
  for (long long index = 0; index < n; index++) {
    probe(index);
    if (items[index] == target) {
      answer = index;
      break;
    }
    if (items[index] > target) break;
  }
  printf("%lld\n", answer);
  free(items);
  return 0;
}
