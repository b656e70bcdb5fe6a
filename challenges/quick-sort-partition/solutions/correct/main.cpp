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

void quickSort(std::vector<int>& array, int lo, int hi) {
  if (lo >= hi) return;
  int pivot = array[hi];
  step("pivot", {hi}, array);
  int i = lo;
  for (int j = lo; j < hi; j++) {
    step("compare", {j, hi}, array);
    if (array[j] <= pivot) {
      if (i != j) {
        std::swap(array[i], array[j]);
        step("swap", {i, j}, array);
      }
      i++;
    }
  }
  std::swap(array[i], array[hi]);
  step("place", {i}, array);
  quickSort(array, lo, i - 1);
  quickSort(array, i + 1, hi);
}

int main() {
  int n = 0;
  std::cin >> n;
  std::vector<int> array(n);
  for (int& value : array) std::cin >> value;
  quickSort(array, 0, n - 1);
  step("done", {}, array);
  for (int k = 0; k < n; k++) std::cout << (k > 0 ? " " : "") << array[k];
  std::cout << "\n";
  return 0;
}
