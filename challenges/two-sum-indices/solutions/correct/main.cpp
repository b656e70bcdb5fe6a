#include <iostream>
#include <unordered_map>
#include <vector>

int main() {
  int n;
  long long target;
  std::cin >> n >> target;
  std::vector<long long> values(n);
  for (auto& value : values) std::cin >> value;
  std::unordered_map<long long, int> firstPosition;
  for (int j = 0; j < n; j++) {
    auto partner = firstPosition.find(target - values[j]);
    if (partner != firstPosition.end()) {
      std::cout << partner->second + 1 << ' ' << j + 1 << '\n';
      return 0;
    }
    // emplace keeps the first position of each value: the smallest i wins.
    firstPosition.emplace(values[j], j);
  }
  std::cout << "0 0\n";
}
