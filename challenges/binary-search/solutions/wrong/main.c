#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

// Marks a step without a probe: its mid prints as null.
#define NO_MID (-1)

// Prints one step line: "@step " and a JSON object with the step's fields.
void step(int low, int high, int mid, bool found) {
  printf("@step {\"low\": %d, \"high\": %d, \"mid\": ", low, high);
  if (mid == NO_MID) {
    fputs("null", stdout);
  } else {
    printf("%d", mid);
  }
  printf(", \"found\": %s}\n", found ? "true" : "false");
}

int search(const int *array, int n, int target) {
  int low = 0;
  int high = n - 1;
  // Wrong on purpose: stops when low == high, before probing the last candidate.
  while (low < high) {
    int mid = low + (high - low) / 2;
    bool found = array[mid] == target;
    step(low, high, mid, found);
    if (found) return mid;
    if (array[mid] < target) {
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  step(low, high, NO_MID, false);
  return -1;
}

int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1 || n < 0) n = 0;
  int *array = malloc(sizeof *array * (size_t)n);
  if (n > 0 && array == NULL) return 1;
  for (int k = 0; k < n; k++) {
    if (scanf("%d", &array[k]) != 1) array[k] = 0;
  }
  int target = 0;
  if (scanf("%d", &target) != 1) target = 0;
  printf("%d\n", search(array, n, target));
  free(array);
  return 0;
}
