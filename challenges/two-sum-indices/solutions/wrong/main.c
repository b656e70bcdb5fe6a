#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

// A hash table from a value to the first position it was seen at, by open addressing: slot k is
// empty when position[k] is -1. Its capacity is a power of two at least twice the values stored.
typedef struct {
  long long *value;
  int *position;
  size_t mask;
} FirstPositions;

size_t slot_of(const FirstPositions *table, long long value) {
  uint64_t mixed = (uint64_t)value * 0x9E3779B97F4A7C15u;  // Fibonacci hashing: spreads nearby values
  size_t slot = (size_t)(mixed >> 32) & table->mask;
  while (table->position[slot] >= 0 && table->value[slot] != value) slot = (slot + 1) & table->mask;
  return slot;
}

// The first position of value, or -1.
int find(const FirstPositions *table, long long value) { return table->position[slot_of(table, value)]; }

// Keeps the first position of each value: the smallest i wins.
void remember(FirstPositions *table, long long value, int position) {
  size_t slot = slot_of(table, value);
  if (table->position[slot] >= 0) return;
  table->value[slot] = value;
  table->position[slot] = position;
}

int main(void) {
  int n = 0;
  long long target = 0;
  if (scanf("%d %lld", &n, &target) != 2 || n < 0) return 1;
  long long *values = malloc(sizeof *values * (size_t)(n > 0 ? n : 1));
  if (values == NULL) return 1;
  for (int k = 0; k < n; k++) {
    if (scanf("%lld", &values[k]) != 1) return 1;
  }
  size_t capacity = 2;
  while (capacity < 2 * (size_t)n) capacity *= 2;
  FirstPositions table = {
      .value = malloc(sizeof *table.value * capacity),
      .position = malloc(sizeof *table.position * capacity),
      .mask = capacity - 1,
  };
  if (table.value == NULL || table.position == NULL) return 1;
  for (size_t k = 0; k < capacity; k++) table.position[k] = -1;
  int first = -1, second = -1;
  for (int j = 0; j < n && first < 0; j++) {
    // Mistake: the value is stored before the look-up, so it can pair with itself.
    remember(&table, values[j], j);
    int partner = find(&table, target - values[j]);
    if (partner >= 0) {
      first = partner;
      second = j;
    }
  }
  printf("%d %d\n", first + 1, second + 1);
  free(values);
  free(table.value);
  free(table.position);
  return 0;
}
