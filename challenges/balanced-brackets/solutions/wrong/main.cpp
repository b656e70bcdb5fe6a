#include <iostream>
#include <string>

bool balanced(const std::string& text) {
  // Mistake: one counter per kind checks the numbers of brackets but not how they nest.
  int round = 0, square = 0, curly = 0;
  for (char bracket : text) {
    switch (bracket) {
      case '(': round++; break;
      case '[': square++; break;
      case '{': curly++; break;
      case ')': round--; break;
      case ']': square--; break;
      default: curly--;
    }
    if (round < 0 || square < 0 || curly < 0) return false;
  }
  return round == 0 && square == 0 && curly == 0;
}

int main() {
  int count;
  std::cin >> count;
  std::string text;
  for (int k = 0; k < count && std::cin >> text; k++) std::cout << (balanced(text) ? "YES" : "NO") << '\n';
}
