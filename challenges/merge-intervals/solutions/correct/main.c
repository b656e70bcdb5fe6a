#include <stdio.h>
#include <stdlib.h>

typedef struct {
  long long left;
  long long right;
} Interval;

// Orders intervals by left end, then right end.
int compare_intervals(const void *a, const void *b) {
  const Interval *x = a;
  const Interval *y = b;
  if (x->left != y->left) return (x->left > y->left) - (x->left < y->left);
  return (x->right > y->right) - (x->right < y->right);
}

int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1 || n < 0) return 1;
  Interval *intervals = malloc(sizeof *intervals * (size_t)(n > 0 ? n : 1));
  if (intervals == NULL) return 1;
  for (int k = 0; k < n; k++) {
    if (scanf("%lld %lld", &intervals[k].left, &intervals[k].right) != 2) return 1;
  }
  qsort(intervals, (size_t)n, sizeof *intervals, compare_intervals);
  // The merged intervals overwrite the sorted ones from the front: merged_count never passes k.
  int merged_count = 0;
  for (int k = 0; k < n; k++) {
    Interval next = intervals[k];
    if (merged_count > 0 && next.left <= intervals[merged_count - 1].right) {
      Interval *last = &intervals[merged_count - 1];
      if (next.right > last->right) last->right = next.right;
    } else {
      intervals[merged_count++] = next;
    }
  }
  for (int k = 0; k < merged_count; k++) printf("%lld %lld\n", intervals[k].left, intervals[k].right);
  free(intervals);
  return 0;
}
