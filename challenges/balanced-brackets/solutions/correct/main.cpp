#include <iostream>
#include <string>
#include <vector>

bool balanced(const std::string& text) {
  std::vector<char> stack;
  for (char bracket : text) {
    if (bracket == '(' || bracket == '[' || bracket == '{') {
      stack.push_back(bracket);
      continue;
    }
    char opener = bracket == ')' ? '(' : bracket == ']' ? '[' : '{';
    if (stack.empty() || stack.back() != opener) return false;
    stack.pop_back();
  }
  return stack.empty();
}

int main() {
  int count;
  std::cin >> count;
  std::string text;
  for (int k = 0; k < count && std::cin >> text; k++) std::cout << (balanced(text) ? "YES" : "NO") << '\n';
}
