#include <iostream>
#include <utility>
#include <vector>

// A depth-first search: it finds a path to node n, but not always a shortest one.
int main() {
  int n;
  std::cin >> n;
  std::vector<bool> seen(n + 1, false);
  std::vector<std::pair<int, int>> stack = {{1, 0}};
  seen[1] = true;
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (node == n) {
      std::cout << "! " << depth << std::endl;
      return 0;
    }
    std::cout << "? " << node << std::endl;
    int count;
    std::cin >> count;
    std::vector<int> neighbours(count);
    for (int& neighbour : neighbours) std::cin >> neighbour;
    for (int index = count - 1; index >= 0; --index) {
      if (seen[neighbours[index]]) continue;
      seen[neighbours[index]] = true;
      stack.push_back({neighbours[index], depth + 1});
    }
  }
  std::cout << "! -1" << std::endl;
}
