#include <cstdio>
#include <vector>

// One step line per item looked at.
static void probe(long long index) { std::printf("@step {\"action\": \"probe\", \"index\": %lld}\n", index); }

int main() {
  // A scan from the start: right answers, about n probes.
  long long n = 0, target = 0;
  if (std::scanf("%lld", &n) != 1) return 1;
  std::vector<long long> items(n);
  for (auto& item : items) std::scanf("%lld", &item);
  std::scanf("%lld", &target);
  for (long long index = 0; index < n; index++) {
    probe(index);
    if (items[index] == target) {
      std::printf("%lld\n", index);
      return 0;
    }
    if (items[index] > target) break;
  }
  std::printf("-1\n");
}
