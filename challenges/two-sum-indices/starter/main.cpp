#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

// Optional step helper for the app's step player: step("action", "look", "j", 3) prints
// @step {"action": "look", "j": 3}. Values: numbers, bools, strings and vectors of those.
std::string toJson(bool value) { return value ? "true" : "false"; }
std::string toJson(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return quoted + "\"";
}
std::string toJson(const char* text) { return toJson(std::string(text)); }
template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value>>
std::string toJson(T number) {
  std::ostringstream out;
  out << number;
  return out.str();
}
template <typename T>
std::string toJson(const std::vector<T>& items) {
  std::string out = "[";
  for (size_t k = 0; k < items.size(); k++) out += (k ? ", " : "") + toJson(items[k]);
  return out + "]";
}
inline void addFields(std::string&) {}
template <typename V, typename... Rest>
void addFields(std::string& out, const char* key, const V& value, const Rest&... rest) {
  if (out.size() > 1) out += ", ";
  out += toJson(key) + ": " + toJson(value);
  addFields(out, rest...);
}
template <typename... Fields>
void step(const Fields&... fields) {
  std::string object = "{";
  addFields(object, fields...);
  std::cout << "@step " << object << "}" << std::endl;
}

int main() {
  int n;
  long long target;
  std::cin >> n >> target;
  std::vector<long long> values(n);
  for (auto& value : values) std::cin >> value;
  // TODO: find positions i < j with values[i] + values[j] == target (smallest j, then smallest i)
  // and print them counting from 1, or "0 0" when there is no such pair.
  std::cout << "0 0\n";
}
