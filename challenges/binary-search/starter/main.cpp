#include <iostream>
#include <optional>
#include <string>
#include <vector>

// Prints one step line: "@step " and a JSON object with the step's fields (no mid prints as null).
void step(int low, int high, std::optional<int> mid, bool found) {
  std::cout << "@step {\"low\": " << low << ", \"high\": " << high
            << ", \"mid\": " << (mid ? std::to_string(*mid) : "null")
            << ", \"found\": " << (found ? "true" : "false") << "}\n";
}

int search(const std::vector<int>& array, int target) {
  // TODO: binary search for target in array. Report each probe, and the end of a failed search:
  //   step(low, high, mid, array[mid] == target);
  //   step(low, high, std::nullopt, false);
  return -1;
}

int main() {
  int n = 0;
  std::cin >> n;
  std::vector<int> array(n);
  for (int& value : array) std::cin >> value;
  int target = 0;
  std::cin >> target;
  std::cout << search(array, target) << "\n";
  return 0;
}
