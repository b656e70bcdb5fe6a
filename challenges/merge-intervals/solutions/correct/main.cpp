#include <algorithm>
#include <iostream>
#include <utility>
#include <vector>

int main() {
  int n;
  std::cin >> n;
  std::vector<std::pair<long long, long long>> intervals(n);
  for (auto& interval : intervals) std::cin >> interval.first >> interval.second;
  std::sort(intervals.begin(), intervals.end());
  std::vector<std::pair<long long, long long>> merged;
  for (auto [left, right] : intervals) {
    if (!merged.empty() && left <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, right);
    } else {
      merged.emplace_back(left, right);
    }
  }
  for (auto [left, right] : merged) std::cout << left << ' ' << right << '\n';
}
