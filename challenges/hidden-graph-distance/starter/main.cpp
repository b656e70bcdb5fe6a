#include <iostream>

int main() {
  long long n;
  std::cin >> n;
  // Ask with std::cout << ... << std::endl (endl flushes), then read a reply: "k u1 ... uk".
  std::cout << "! " << -1 << std::endl;
}
