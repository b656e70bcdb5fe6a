// Checker for topological-order in the testlib protocol, written without testlib:
//   checker input output answer
// Exit 0: accepted, 1: wrong answer, 2: presentation error (not a list of numbers),
// 3: checker failure (the input or the reference answer is broken; never the learner's fault).
// The message goes to stderr, as testlib's does; it is shown to the learner after the verdict, so it
// does not repeat the verdict's words.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

enum Verdict { kAccepted = 0, kWrongAnswer = 1, kPresentationError = 2, kFail = 3 };

[[noreturn]] void finish(Verdict verdict, const std::string& message) {
  std::cerr << message << std::endl;
  std::exit(verdict);
}

std::vector<std::string> readTokens(const char* path, Verdict onError) {
  std::ifstream file(path, std::ios::binary);
  if (!file) finish(onError, std::string("cannot open ") + path);
  std::vector<std::string> tokens;
  std::string token;
  while (file >> token) tokens.push_back(token);
  return tokens;
}

// A decimal integer without sign, leading '+' or leading zeros, at most 9 digits; -1 otherwise.
long long parseNode(const std::string& token) {
  if (token.empty() || token.size() > 9 || (token.size() > 1 && token[0] == '0')) return -1;
  long long value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

bool isImpossible(const std::string& token) {
  std::string upper;
  for (char c : token) upper += (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
  return upper == "IMPOSSIBLE";
}

struct Graph {
  long long nodes = 0;
  std::vector<std::pair<long long, long long>> edges;
};

Graph readGraph(const char* path) {
  std::vector<std::string> tokens = readTokens(path, kFail);
  Graph graph;
  if (tokens.size() < 2) finish(kFail, "the input has no n and m");
  graph.nodes = parseNode(tokens[0]);
  long long edgeCount = parseNode(tokens[1]);
  if (graph.nodes < 1 || edgeCount < 0 || tokens.size() != size_t(2 + 2 * edgeCount)) {
    finish(kFail, "the input is not n m and m edges");
  }
  for (long long k = 0; k < edgeCount; k++) {
    long long from = parseNode(tokens[2 + 2 * k]), to = parseNode(tokens[3 + 2 * k]);
    if (from < 1 || from > graph.nodes || to < 1 || to > graph.nodes) finish(kFail, "an input edge is out of range");
    graph.edges.emplace_back(from, to);
  }
  return graph;
}

// Checks that tokens are an order of all nodes that puts every edge's start before its end.
// Returns an empty string when they are, else what is wrong.
std::string orderProblem(const Graph& graph, const std::vector<std::string>& tokens, Verdict& kind) {
  kind = kWrongAnswer;
  std::vector<long long> position(graph.nodes + 1, -1);
  for (size_t k = 0; k < tokens.size(); k++) {
    long long node = parseNode(tokens[k]);
    if (node < 0) {
      kind = kPresentationError;
      return "word " + std::to_string(k + 1) + " is \"" + tokens[k].substr(0, 30) + "\", not a node number";
    }
    if (node < 1 || node > graph.nodes) {
      return "node " + std::to_string(node) + " does not exist (nodes are 1 to " + std::to_string(graph.nodes) + ")";
    }
    if (position[node] >= 0) return "node " + std::to_string(node) + " appears twice";
    position[node] = k;
  }
  if ((long long)tokens.size() != graph.nodes) {
    for (long long node = 1; node <= graph.nodes; node++) {
      if (position[node] < 0) {
        return "the order has " + std::to_string(tokens.size()) + " of the " + std::to_string(graph.nodes) +
               " nodes; node " + std::to_string(node) + " is missing";
      }
    }
  }
  for (const auto& [from, to] : graph.edges) {
    if (from == to) {
      return "the edge " + std::to_string(from) + " -> " + std::to_string(to) + " is a loop, so no order exists";
    }
    if (position[from] > position[to]) {
      return "the edge " + std::to_string(from) + " -> " + std::to_string(to) + " needs " + std::to_string(from) +
             " before " + std::to_string(to) + ", but " + std::to_string(to) + " comes first";
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) finish(kFail, "usage: checker input output answer");
  Graph graph = readGraph(argv[1]);
  std::vector<std::string> output = readTokens(argv[2], kWrongAnswer);
  std::vector<std::string> answer = readTokens(argv[3], kFail);

  Verdict kind;
  bool answerSaysImpossible = answer.size() == 1 && isImpossible(answer[0]);
  if (!answerSaysImpossible) {
    std::string problem = orderProblem(graph, answer, kind);
    if (!problem.empty()) finish(kFail, "the reference answer is not a valid order: " + problem);
  }

  if (!output.empty() && isImpossible(output[0])) {
    if (output.size() > 1) finish(kPresentationError, "IMPOSSIBLE must be the only word of the output");
    if (answerSaysImpossible) finish(kAccepted, "the graph has a cycle");
    finish(kWrongAnswer, "the output says IMPOSSIBLE, but the graph has no cycle: an order exists");
  }
  if (output.empty()) {
    finish(kWrongAnswer, answerSaysImpossible ? "the output is empty; expected IMPOSSIBLE (the graph has a cycle)"
                                              : "the output is empty; expected an order of all nodes");
  }
  std::string problem = orderProblem(graph, output, kind);
  if (!problem.empty()) {
    if (answerSaysImpossible && kind == kWrongAnswer) problem += " (the graph has a cycle: expected IMPOSSIBLE)";
    finish(kind, problem);
  }
  if (answerSaysImpossible) finish(kFail, "the output is a valid order, but the reference answer says IMPOSSIBLE");
  finish(kAccepted, std::to_string(graph.nodes) + (graph.nodes == 1 ? " node" : " nodes") + " in a valid order");
}
