#include <cstdio>
#include <utility>
#include <vector>

// One step line per comparison of two items.
static void compare() { std::fputs("@step {\"action\": \"compare\"}\n", stdout); }

int main() {
  // Insertion sort: right answers, but about n²/4 comparisons on random input.
  size_t n = 0;
  if (std::scanf("%zu", &n) != 1) return 1;
  std::vector<long long> items(n);
  for (auto& item : items) std::scanf("%lld", &item);
  for (size_t i = 1; i < n; i++) {
    for (size_t j = i; j > 0; j--) {
      compare();
      if (items[j - 1] <= items[j]) break;
      std::swap(items[j - 1], items[j]);
    }
  }
  for (size_t i = 0; i < n; i++) std::printf(i ? " %lld" : "%lld", items[i]);
  std::printf("\n");
}
