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
    // Mistake: the value is stored before the look-up, so it can pair with itself.
    firstPosition.emplace(values[j], j);
    auto partner = firstPosition.find(target - values[j]);
    if (partner != firstPosition.end()) {
      std::cout << partner->second + 1 << ' ' << j + 1 << '\n';
      return 0;
    }
  }
  std::cout << "0 0\n";
}
