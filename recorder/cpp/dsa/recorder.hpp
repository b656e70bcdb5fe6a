// dsa-run's step recorder for C++17: an algorithm records what it does, one `@step {json}` line
// per step on stdout.
//
//   #include <dsa/recorder.hpp>
//   dsa::Recorder rec(std::vector<long long>{5, 2, 4});   // or std::vector<double>, <std::string>
//   rec.compare(0, 1);                                      // @step {"action":"compare",...}
//   rec.swap(0, 1, "2 is smaller: swap");
//   rec.done();
//
// The recorder keeps the elements with stable ids and makes up a caption when none is given.
// Each step first flushes what the program printed before it (std::cout and printf alike), then
// writes its own line with write(2), so output keeps its order and a step line is never split;
// end your own printed lines with a newline before the next step. docs/challenges.md ("Step
// recorder") has the whole API. Header-only; needs C++17.
#ifndef DSA_RECORDER_HPP
#define DSA_RECORDER_HPP

#if __cplusplus < 201703L
#error "<dsa/recorder.hpp> needs C++17 or later (choose the version c++17, c++20 or c++23)"
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

namespace dsa {

/// A call the recorder refuses: too many steps, a value JSON cannot hold, an index out of range.
struct RecorderError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr long long maxSteps = 100000;

namespace detail {

inline long long stepsWritten = 0;  // per process, whatever the number of recorders

inline void appendString(std::string& out, std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

// The shortest text that reads back as the same double; always with a '.' or an exponent, so it
// stays a float.
inline std::string formatDouble(double value) {
  if (!std::isfinite(value)) {
    throw RecorderError("the recorder cannot write " + std::string(std::isnan(value) ? "NaN" : "Infinity") +
                        ": JSON has no NaN or Infinity");
  }
  char buffer[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  std::string text = buffer;
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

template <typename T>
void appendValue(std::string& out, const T& value) {
  using U = std::decay_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    out += value ? "true" : "false";
  } else if constexpr (std::is_integral_v<U>) {
    out += std::to_string(value);
  } else if constexpr (std::is_floating_point_v<U>) {
    out += formatDouble(static_cast<double>(value));
  } else if constexpr (std::is_convertible_v<const U&, std::string_view>) {
    appendString(out, std::string_view(value));
  } else {
    out += '[';
    bool first = true;
    for (const auto& item : value) {
      if (!first) out += ',';
      first = false;
      appendValue(out, item);
    }
    out += ']';
  }
}

inline void writeAll(const std::string& line) {
  std::cout.flush();
  std::fflush(stdout);
  const char* data = line.data();
  size_t left = line.size();
  while (left > 0) {
    ssize_t written = ::write(1, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;  // stdout is gone (closed, or the output limit): nothing to tell
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
}

// Counts the step, then writes `{"action":...,<body>,"caption":...}`.
inline void writeStep(std::string_view action, const std::string& body, const std::string& caption) {
  if (stepsWritten >= maxSteps) {
    throw RecorderError("too many steps: the recorder keeps at most " + std::to_string(maxSteps));
  }
  std::string line = "@step {\"action\":";
  appendString(line, action);
  if (!body.empty()) {
    line += ',';
    line += body;
  }
  line += ",\"caption\":";
  appendString(line, caption);
  line += "}\n";
  ++stepsWritten;
  writeAll(line);
}

}  // namespace detail

/// The JSON text of a value (a number, a string, a bool, or a container of them), for `step`'s fields.
template <typename T>
std::string toJson(const T& value) {
  std::string out;
  detail::appendValue(out, value);
  return out;
}

/// Records the steps of an algorithm over a vector of integers, floating-point numbers or strings;
/// with no elements, the steps of a search (`probe`) or a graph walk (`visit`, `discover`).
template <typename T = long long>
class Recorder {
 public:
  Recorder() = default;
  explicit Recorder(std::vector<T> items) : array_(std::move(items)) {
    for (const auto& item : array_) detail::appendValue(scratch_, item);  // refuses NaN and Infinity now
    scratch_.clear();
    for (size_t k = 0; k < array_.size(); ++k) ids_.push_back(static_cast<long long>(k));
    nextId_ = static_cast<long long>(array_.size());
  }
  Recorder(std::initializer_list<T> items) : Recorder(std::vector<T>(items)) {}

  /// The current values, in their current order.
  const std::vector<T>& array() const { return array_; }
  const std::vector<T>& items() const { return array_; }
  /// The current elements' ids, in the array's order.
  const std::vector<long long>& ids() const { return ids_; }
  size_t size() const { return array_.size(); }
  const T& operator[](size_t index) const { return array_.at(index); }
  const std::vector<long long>& visited() const { return visited_; }
  const std::vector<long long>& frontier() const { return frontier_; }

  void compare(size_t i, size_t j, std::optional<std::string> caption = std::nullopt) {
    check(i);
    check(j);
    arrayStep("compare", {i, j},
              caption ? *caption
                      : "Compare index " + std::to_string(i) + " (" + toJson(array_[i]) + ") with index " +
                            std::to_string(j) + " (" + toJson(array_[j]) + ")");
  }

  void swap(size_t i, size_t j, std::optional<std::string> caption = std::nullopt) {
    check(i);
    check(j);
    std::swap(array_[i], array_[j]);
    std::swap(ids_[i], ids_[j]);
    arrayStep("swap", {i, j},
              caption ? *caption : "Swap index " + std::to_string(i) + " and index " + std::to_string(j));
  }

  void overwrite(size_t i, T value, std::optional<std::string> caption = std::nullopt) {
    check(i);
    std::string text = toJson(value);
    array_[i] = std::move(value);
    ids_[i] = nextId_++;
    arrayStep("overwrite", {i}, caption ? *caption : "Write " + text + " at index " + std::to_string(i));
  }

  /// Marks index i sorted; no step of its own (the next step shows it).
  void markSorted(size_t i) {
    check(i);
    sorted_.insert(i);
  }

  void done(std::optional<std::string> caption = std::nullopt) {
    for (size_t k = 0; k < array_.size(); ++k) sorted_.insert(k);
    arrayStep("done", {}, caption ? *caption : "Done");
  }

  /// A binary-search probe; `mid` std::nullopt for an empty window.
  void probe(long long low, std::optional<long long> mid, long long high, bool found = false,
             std::optional<std::string> caption = std::nullopt) {
    std::string text;
    if (caption) {
      text = *caption;
    } else if (!mid) {
      text = "Empty window: low " + std::to_string(low) + ", high " + std::to_string(high);
    } else if (found) {
      text = "Found at index " + std::to_string(*mid);
    } else {
      text = "Probe index " + std::to_string(*mid) + ": low " + std::to_string(low) + ", high " + std::to_string(high);
    }
    std::string body = "\"low\":" + std::to_string(low) + ",\"high\":" + std::to_string(high) +
                       ",\"mid\":" + (mid ? std::to_string(*mid) : std::string("null")) +
                       ",\"found\":" + (found ? "true" : "false");
    detail::writeStep("probe", body, text);
  }

  void visit(long long node, std::optional<std::string> caption = std::nullopt) {
    auto at = std::find(frontier_.begin(), frontier_.end(), node);
    if (at != frontier_.end()) frontier_.erase(at);
    if (std::find(visited_.begin(), visited_.end(), node) == visited_.end()) visited_.push_back(node);
    current_ = node;
    graphStep("visit", caption ? *caption : "Visit node " + std::to_string(node));
  }

  void discover(long long node, std::optional<std::string> caption = std::nullopt) {
    if (std::find(visited_.begin(), visited_.end(), node) == visited_.end()) visited_.push_back(node);
    frontier_.push_back(node);
    graphStep("discover", caption ? *caption : "Discover node " + std::to_string(node));
  }

  /// Any step; `fields` is a JSON object's text, like R"({"cells":[1,2]})" or
  /// "{\"cells\":" + dsa::toJson(cells) + "}".
  void step(const std::string& action, const std::string& fields = "{}",
            std::optional<std::string> caption = std::nullopt) {
    size_t open = fields.find_first_not_of(" \t\r\n");
    size_t close = fields.find_last_not_of(" \t\r\n");
    if (open == std::string::npos || fields[open] != '{' || fields[close] != '}') {
      throw RecorderError("step fields must be a JSON object's text, like {\"cells\":[1,2]}");
    }
    std::string inner = fields.substr(open + 1, close - open - 1);
    if (inner.find_first_not_of(" \t\r\n") == std::string::npos) inner.clear();
    detail::writeStep(action, inner, caption ? *caption : action);
  }

 private:
  void check(size_t index) const {
    if (index >= array_.size()) {
      throw RecorderError("index " + std::to_string(index) + " is outside the recorder's " +
                          std::to_string(array_.size()) + " elements");
    }
  }

  void arrayStep(std::string_view action, std::initializer_list<size_t> active, const std::string& caption) {
    std::string body = "\"active\":" + toJson(std::vector<size_t>(active)) + ",\"array\":" + toJson(array_) +
                       ",\"ids\":" + toJson(ids_) + ",\"sorted\":" +
                       toJson(std::vector<size_t>(sorted_.begin(), sorted_.end()));
    detail::writeStep(action, body, caption);
  }

  void graphStep(std::string_view action, const std::string& caption) {
    std::string body = "\"current\":" + (current_ ? std::to_string(*current_) : std::string("null")) +
                       ",\"visited\":" + toJson(visited_) + ",\"frontier\":" + toJson(frontier_);
    detail::writeStep(action, body, caption);
  }

  std::vector<T> array_;
  std::vector<long long> ids_;
  long long nextId_ = 0;
  std::set<size_t> sorted_;
  std::vector<long long> visited_;
  std::vector<long long> frontier_;
  std::optional<long long> current_;
  std::string scratch_;
};

Recorder()->Recorder<long long>;
Recorder(std::initializer_list<const char*>)->Recorder<std::string>;

}  // namespace dsa

#include "shapes.hpp"

#endif
