#include <iostream>
#include <queue>
#include <vector>

int main() {
  int n;
  std::cin >> n;
  if (n == 1) {
    std::cout << "! 0" << std::endl;
    return 0;
  }
  std::vector<int> distance(n + 1, -1);
  std::queue<int> frontier;
  distance[1] = 0;
  frontier.push(1);
  while (!frontier.empty()) {
    int node = frontier.front();
    frontier.pop();
    std::cout << "? " << node << std::endl;  // endl flushes: the interactor is waiting
    int count;
    std::cin >> count;
    for (int index = 0; index < count; ++index) {
      int neighbour;
      std::cin >> neighbour;
      if (distance[neighbour] >= 0) continue;
      distance[neighbour] = distance[node] + 1;
      if (neighbour == n) {
        std::cout << "! " << distance[neighbour] << std::endl;
        return 0;
      }
      frontier.push(neighbour);
    }
  }
  std::cout << "! -1" << std::endl;
}
