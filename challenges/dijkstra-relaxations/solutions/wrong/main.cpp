#include <algorithm>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// Prints one step line: "@step " and a JSON object with the step's fields. A distance of -1 (not
// reached yet) prints as null; a settle step passes no edge, so it has no edge or relaxed field.
void step(const std::string& action, int current, const std::vector<int>& dist, const std::vector<int>& edge = {},
          bool relaxed = false) {
  std::cout << "@step {\"action\": \"" << action << "\", \"current\": " << current << ", \"dist\": [";
  for (size_t k = 0; k < dist.size(); k++) {
    std::cout << (k > 0 ? ", " : "") << (dist[k] < 0 ? std::string("null") : std::to_string(dist[k]));
  }
  std::cout << "]";
  if (!edge.empty()) {
    std::cout << ", \"edge\": [" << edge[0] << ", " << edge[1] << ", " << edge[2]
              << "], \"relaxed\": " << (relaxed ? "true" : "false");
  }
  std::cout << "}\n";
}

int main() {
  int n = 0, m = 0, source = 0;
  std::cin >> n >> m >> source;
  std::vector<std::vector<std::pair<int, int>>> outgoing(n);  // (to, weight)
  for (int k = 0; k < m; k++) {
    int u = 0, v = 0, w = 0;
    std::cin >> u >> v >> w;
    outgoing[u].push_back({v, w});
  }
  for (auto& edges : outgoing) std::sort(edges.begin(), edges.end());

  std::vector<int> dist(n, -1);
  std::vector<bool> settled(n, false);
  dist[source] = 0;
  while (true) {
    int node = -1;
    for (int v = 0; v < n; v++) {
      if (!settled[v] && dist[v] >= 0 && (node < 0 || dist[v] < dist[node])) node = v;
    }
    if (node < 0) break;
    settled[node] = true;
    step("settle", node, dist);
    for (auto [to, weight] : outgoing[node]) {
      // Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too.
      int through = dist[node] + weight;
      bool relaxed = dist[to] < 0 || through < dist[to];
      if (relaxed) dist[to] = through;
      step("relax", node, dist, {node, to, weight}, relaxed);
    }
  }
  for (int k = 0; k < n; k++) std::cout << (k > 0 ? " " : "") << dist[k];
  std::cout << "\n";
  return 0;
}
