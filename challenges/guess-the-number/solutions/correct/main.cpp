#include <iostream>
#include <string>

int main() {
  long long n;
  std::cin >> n;
  long long low = 1, high = n;
  while (low < high) {
    long long middle = low + (high - low) / 2;
    std::cout << "? " << middle << std::endl;  // endl flushes: the interactor is waiting
    std::string reply;
    std::cin >> reply;
    if (reply == "=") {
      low = high = middle;
    } else if (reply == "<") {
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  std::cout << "! " << low << std::endl;
}
