#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

// "[1, 2, 3]"
std::string json(const std::vector<int>& values) {
  std::string text = "[";
  for (size_t k = 0; k < values.size(); k++) {
    if (k > 0) text += ", ";
    text += std::to_string(values[k]);
  }
  return text + "]";
}

// Prints one step line: "@step " and a JSON object with the step's fields (no current prints as null).
void step(std::optional<int> current, const std::vector<int>& visited, const std::vector<int>& frontier) {
  std::cout << "@step {\"current\": " << (current ? std::to_string(*current) : "null")
            << ", \"visited\": " << json(visited) << ", \"frontier\": " << json(frontier) << "}\n";
}

int main() {
  int n = 0, m = 0, source = 0;
  std::cin >> n >> m >> source;
  std::vector<std::vector<int>> neighbours(n);
  for (int k = 0; k < m; k++) {
    int u = 0, v = 0;
    std::cin >> u >> v;
    neighbours[u].push_back(v);
    neighbours[v].push_back(u);
  }
  for (auto& adjacent : neighbours) std::sort(adjacent.begin(), adjacent.end());

  // The queue keeps every node ever queued: it is the visited order, and its tail from head the frontier.
  std::vector<bool> seen(n, false);
  seen[source] = true;
  std::vector<int> queue = {source};
  size_t head = 0;
  auto frontier = [&] { return std::vector<int>(queue.begin() + head, queue.end()); };
  step(std::nullopt, queue, frontier());
  // Every neighbour looked at is counted, for the growth grade (@count).
  long long checks = 0;
  while (head < queue.size()) {
    int node = queue[head++];
    for (int neighbour : neighbours[node]) {
      checks++;
      if (!seen[neighbour]) {
        seen[neighbour] = true;
        queue.push_back(neighbour);
      }
    }
    step(node, queue, frontier());
  }
  std::cout << "@count " << checks << "\n";
  for (size_t k = 0; k < queue.size(); k++) std::cout << (k > 0 ? " " : "") << queue[k];
  std::cout << "\n";
  return 0;
}
