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
  for (int donePasses = 0; donePasses < n - 1; donePasses++) {
    bool swapped = false;
    // Wrong on purpose: every pass runs to the end, over items already bubbled into place.
    for (int j = 0; j < n - 1; j++) {
      step("compare", {j, j + 1}, array);
      if (array[j] > array[j + 1]) {
        std::swap(array[j], array[j + 1]);
        swapped = true;
        step("swap", {j, j + 1}, array);
      }
    }
    if (!swapped) break;
  }
  step("done", {}, array);
  for (int k = 0; k < n; k++) std::cout << (k > 0 ? " " : "") << array[k];
  std::cout << "\n";
  return 0;
}
