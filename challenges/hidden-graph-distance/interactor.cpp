// The interactor of hidden-graph-distance (docs/challenges.md, "Interactive problems"): it reads a
// graph ("n m", then m lines "u v") from its input file, tells the program n, answers each "? v"
// about a node the program has seen with v's neighbours, and judges the final "! d" against the
// distance from node 1 to node n (-1 when there is no path). Exit codes are testlib's: 0 accepted,
// 1 wrong answer, 2 the dialogue broke the protocol, 3 the test itself is broken.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <queue>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) return 3;
  std::ifstream input(argv[1]);
  long long n = 0, m = 0;
  if (!(input >> n >> m) || n < 1 || n > 200000 || m < 0 || m > 1000000) {
    std::cerr << "the test's input does not start with \"n m\"";
    return 3;
  }
  std::vector<std::vector<int>> neighbours(n + 1);
  for (long long edge = 0; edge < m; ++edge) {
    long long u = 0, v = 0;
    if (!(input >> u >> v) || u < 1 || u > n || v < 1 || v > n) {
      std::cerr << "edge " << edge + 1 << " of the test's input is not two nodes of 1.." << n;
      return 3;
    }
    neighbours[u].push_back(static_cast<int>(v));
    if (u != v) neighbours[v].push_back(static_cast<int>(u));
  }
  for (auto& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::vector<long long> distance(n + 1, -1);
  std::queue<int> frontier;
  distance[1] = 0;
  frontier.push(1);
  while (!frontier.empty()) {
    int node = frontier.front();
    frontier.pop();
    for (int next : neighbours[node]) {
      if (distance[next] < 0) {
        distance[next] = distance[node] + 1;
        frontier.push(next);
      }
    }
  }

  const long long budget = n - 1;
  std::vector<bool> seen(n + 1, false);
  seen[1] = true;
  std::cout << n << std::endl;
  long long asked = 0;
  std::string word;
  while (std::cin >> word) {
    long long x = 0;
    if (word != "?" && word != "!") {
      std::cerr << "expected \"? v\" or \"! d\", got \"" << word.substr(0, 20) << "\"";
      return 2;
    }
    if (!(std::cin >> x)) {
      std::cerr << "expected a number after \"" << word << "\"";
      return 2;
    }
    if (word == "!") {
      if (x != distance[n]) {
        std::cerr << "you answered " << x << ", but the distance from node 1 to node " << n << " is "
                  << distance[n];
        return 1;
      }
      std::cerr << "the distance is " << x << ", found with " << asked << " questions";
      return 0;
    }
    if (x < 1 || x > n) {
      std::cerr << "node " << x << " is outside 1.." << n;
      return 1;
    }
    if (!seen[x]) {
      std::cerr << "you asked about node " << x
                << ", which you have not seen yet (ask about node 1 or a node from a reply)";
      return 1;
    }
    ++asked;
    if (asked > budget) {
      std::cerr << "question " << asked << " is one too many: at most n - 1 = " << budget << " are allowed";
      return 1;
    }
    const auto& list = neighbours[x];
    std::string reply = std::to_string(list.size());
    for (int next : list) {
      seen[next] = true;
      reply += ' ';
      reply += std::to_string(next);
    }
    std::cout << reply << std::endl;
  }
  std::cerr << "your program stopped talking after " << asked << " questions without answering \"! d\"";
  return 1;
}
