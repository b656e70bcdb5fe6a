#include <iostream>
#include <string>

// Asks every number in turn: right in the end, but far more questions than a binary search.
int main() {
  long long n;
  std::cin >> n;
  for (long long guess = 1; guess <= n; ++guess) {
    std::cout << "? " << guess << std::endl;
    std::string reply;
    if (!(std::cin >> reply)) return 0;
    if (reply == "=") {
      std::cout << "! " << guess << std::endl;
      return 0;
    }
  }
}
