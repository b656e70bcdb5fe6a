#include <algorithm>
#include <iostream>
#include <vector>

std::vector<long long> values, prefix;
std::vector<bool> used;

void extend() {
  int n = values.size();
  if ((int)prefix.size() == n) {
    for (int k = 0; k < n; k++) std::cout << (k ? " " : "") << prefix[k];
    std::cout << '\n';
    return;
  }
  for (int k = 0; k < n; k++) {
    // Mistake: every position is tried, so equal values give the same permutation several times.
    if (used[k]) continue;
    used[k] = true;
    prefix.push_back(values[k]);
    extend();
    prefix.pop_back();
    used[k] = false;
  }
}

int main() {
  int n;
  std::cin >> n;
  values.resize(n);
  for (auto& value : values) std::cin >> value;
  std::sort(values.begin(), values.end());
  used.assign(n, false);
  extend();
}
