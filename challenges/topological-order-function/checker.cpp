// Checker for topological-order-function (docs/challenges.md, "A checker over values"):
//   checker input.txt output.txt answer.txt
// input.txt: {"n": N, "edges": [[u, v], ...]}; output.txt: the returned int array; answer.txt: null.
// Exit 0: accepted, 1: wrong answer, 3: the checker failed (never the learner's fault). The message
// goes to stderr, shown after "Your function returned ...:".
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

[[noreturn]] void finish(int verdict, const std::string& message) {
  std::cerr << message << std::endl;
  std::exit(verdict);
}

// Every integer in the file, in order: the JSON here holds only integers, brackets, commas, keys.
std::vector<long long> integers(const char* path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) finish(3, std::string("cannot open ") + path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string text = buffer.str();
  std::vector<long long> values;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '-' || (text[i] >= '0' && text[i] <= '9')) {
      size_t end = i + 1;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') end++;
      values.push_back(std::stoll(text.substr(i, end - i)));
      i = end;
    } else {
      i++;
    }
  }
  return values;
}

// Whether the graph has an order at all: Kahn's algorithm reaches every node.
bool hasOrder(long long n, const std::vector<std::pair<long long, long long>>& edges) {
  std::vector<std::vector<long long>> successors(n + 1);
  std::vector<long long> inDegree(n + 1, 0);
  for (auto [u, v] : edges) {
    successors[u].push_back(v);
    inDegree[v]++;
  }
  std::vector<long long> ready;
  for (long long node = 1; node <= n; node++)
    if (inDegree[node] == 0) ready.push_back(node);
  long long taken = 0;
  while (!ready.empty()) {
    long long node = ready.back();
    ready.pop_back();
    taken++;
    for (long long next : successors[node])
      if (--inDegree[next] == 0) ready.push_back(next);
  }
  return taken == n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) finish(3, "usage: checker input output answer");
  std::vector<long long> input = integers(argv[1]);
  if (input.empty() || input[0] < 1 || (input.size() - 1) % 2 != 0) finish(3, "the arguments are not n and edges");
  const long long n = input[0];
  std::vector<std::pair<long long, long long>> edges;
  for (size_t k = 1; k + 1 < input.size(); k += 2) {
    if (input[k] < 1 || input[k] > n || input[k + 1] < 1 || input[k + 1] > n) finish(3, "an edge names no task");
    edges.emplace_back(input[k], input[k + 1]);
  }
  std::vector<long long> order = integers(argv[2]);
  const bool possible = hasOrder(n, edges);
  if (order.empty()) {
    if (possible) finish(1, "an order exists, but you returned none");
    finish(0, "");
  }
  if (!possible) finish(1, "the rules have a cycle, so no order exists: return an empty array");
  if ((long long)order.size() != n)
    finish(1, "that is " + std::to_string(order.size()) + " tasks, not all " + std::to_string(n));
  std::vector<long long> place(n + 1, -1);
  for (size_t i = 0; i < order.size(); i++) {
    long long task = order[i];
    if (task < 1 || task > n) finish(1, "there is no task " + std::to_string(task));
    if (place[task] != -1) finish(1, "task " + std::to_string(task) + " appears twice");
    place[task] = (long long)i;
  }
  for (auto [u, v] : edges)
    if (place[u] > place[v])
      finish(1, "task " + std::to_string(u) + " must come before task " + std::to_string(v));
  return 0;
}
