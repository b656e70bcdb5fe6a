#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_N = 7 };
static long long values[MAX_N], prefix[MAX_N];
static bool used[MAX_N];
static int n, prefix_length;

void extend(void) {
  if (prefix_length == n) {
    for (int k = 0; k < n; k++) printf(k > 0 ? " %lld" : "%lld", prefix[k]);
    putchar('\n');
    return;
  }
  for (int k = 0; k < n; k++) {
    // Equal values are tried in sorted order only, so each distinct value is tried once here.
    if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue;
    used[k] = true;
    prefix[prefix_length++] = values[k];
    extend();
    prefix_length--;
    used[k] = false;
  }
}

int compare_long_longs(const void *a, const void *b) {
  long long x = *(const long long *)a;
  long long y = *(const long long *)b;
  return (x > y) - (x < y);
}

int main(void) {
  if (scanf("%d", &n) != 1 || n < 1 || n > MAX_N) return 1;
  for (int k = 0; k < n; k++) {
    if (scanf("%lld", &values[k]) != 1) return 1;
  }
  qsort(values, (size_t)n, sizeof values[0], compare_long_longs);
  extend();
  return 0;
}
