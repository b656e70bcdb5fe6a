#include <cstdio>
#include <iostream>
#include <vector>

int main() {
  int n;
  std::cin >> n;
  std::vector<long long> values(n);
  for (auto& value : values) std::cin >> value;
  std::vector<std::vector<int>> children(n);
  for (int child = 0; child < n; child++) {
    int parent;
    std::cin >> parent;
    if (parent >= 0) children[parent].push_back(child);
  }
  std::vector<int> level;
  if (n > 0) level.push_back(0);
  while (!level.empty()) {
    long long sum = 0;
    std::vector<int> next;
    for (int node : level) {
      sum += values[node];
      next.insert(next.end(), children[node].begin(), children[node].end());
    }
    std::printf("%.9f\n", (double)sum / level.size());
    level.swap(next);
  }
}
