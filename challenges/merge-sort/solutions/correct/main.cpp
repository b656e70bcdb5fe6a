#include <cstdio>
#include <vector>

// One step line per comparison of two items.
static void compare() { std::fputs("@step {\"action\": \"compare\"}\n", stdout); }

static void mergeSort(std::vector<long long>& items, std::vector<long long>& scratch, size_t lo, size_t hi) {
  if (hi - lo < 2) return;
  size_t mid = lo + (hi - lo) / 2;
  mergeSort(items, scratch, lo, mid);
  mergeSort(items, scratch, mid, hi);
  size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    compare();
    scratch[k++] = items[i] <= items[j] ? items[i++] : items[j++];
  }
  while (i < mid) scratch[k++] = items[i++];
  while (j < hi) scratch[k++] = items[j++];
  for (size_t x = lo; x < hi; x++) items[x] = scratch[x];
}

int main() {
  size_t n = 0;
  if (std::scanf("%zu", &n) != 1) return 1;
  std::vector<long long> items(n), scratch(n);
  for (auto& item : items) std::scanf("%lld", &item);
  mergeSort(items, scratch, 0, n);
  for (size_t i = 0; i < n; i++) std::printf(i ? " %lld" : "%lld", items[i]);
  std::printf("\n");
}
