#include <cstdio>
#include <vector>

// One step line per item looked at.
static void probe(long long index) { std::printf("@step {\"action\": \"probe\", \"index\": %lld}\n", index); }

int main() {
  long long n = 0, target = 0;
  if (std::scanf("%lld", &n) != 1) return 1;
  std::vector<long long> items(n);
  for (auto& item : items) std::scanf("%lld", &item);
  std::scanf("%lld", &target);
  long long low = 0, high = n - 1;
  while (low <= high) {
    long long middle = low + (high - low) / 2;
    probe(middle);
    if (items[middle] == target) {
      std::printf("%lld\n", middle);
      return 0;
    }
    if (items[middle] < target) low = middle + 1; else high = middle - 1;
  }
  std::printf("-1\n");
}
