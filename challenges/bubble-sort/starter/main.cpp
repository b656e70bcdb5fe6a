#include <iostream>
#include <string>
#include <utility>
#include <vector>

// "[1, 2, 3]"
std::string json(const std::vector<int>& values) {
  std::string text = "[";
  for (size_t k = 0; k < values.size(); k++) {
    if (k > 0) text += ", ";
    text += std::to_string(values[k]);
  }
  return text + "]";
}

// Prints one step line: "@step " and a JSON object with the step's fields.
void step(const std::string& action, const std::vector<int>& active, const std::vector<int>& array) {
  std::cout << "@step {\"action\": \"" << action << "\", \"active\": " << json(active)
            << ", \"array\": " << json(array) << "}\n";
}

int main() {
  int n = 0;
  std::cin >> n;
  std::vector<int> array(n);
  for (int& value : array) std::cin >> value;
  // TODO: bubble sort, stopping after a pass without swaps. Report each comparison and swap, then the end:
  //   step("compare", {j, j + 1}, array);
  //   step("swap", {j, j + 1}, array);
  //   step("done", {}, array);
  for (int k = 0; k < n; k++) std::cout << (k > 0 ? " " : "") << array[k];
  std::cout << "\n";
  return 0;
}
