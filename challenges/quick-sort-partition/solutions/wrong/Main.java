import java.io.IOException;
import java.util.StringJoiner;

public class Main {
  // Prints one step line: "@step " and a JSON object with the step's fields.
  static void step(String action, int[] active, int[] array) {
    System.out.println(
        "@step {\"action\": \"" + action + "\", \"active\": " + json(active) + ", \"array\": " + json(array) + "}");
  }

  static String json(int[] values) {
    StringJoiner text = new StringJoiner(", ", "[", "]");
    for (int value : values) text.add(Integer.toString(value));
    return text.toString();
  }

  static void swap(int[] array, int a, int b) {
    int kept = array[a];
    array[a] = array[b];
    array[b] = kept;
  }

  static void quickSort(int[] array, int lo, int hi) {
    if (lo >= hi) return;
    int pivot = array[hi];
    step("pivot", new int[] {hi}, array);
    int i = lo;
    for (int j = lo; j < hi; j++) {
      step("compare", new int[] {j, hi}, array);
      // Wrong on purpose: items equal to the pivot stay in the right part.
      if (array[j] < pivot) {
        if (i != j) {
          swap(array, i, j);
          step("swap", new int[] {i, j}, array);
        }
        i++;
      }
    }
    swap(array, i, hi);
    step("place", new int[] {i}, array);
    quickSort(array, lo, i - 1);
    quickSort(array, i + 1, hi);
  }

  public static void main(String[] args) throws IOException {
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    int[] array = new int[n];
    for (int k = 0; k < n; k++) array[k] = Integer.parseInt(tokens[1 + k]);
    quickSort(array, 0, n - 1);
    step("done", new int[] {}, array);
    StringJoiner line = new StringJoiner(" ");
    for (int value : array) line.add(Integer.toString(value));
    System.out.println(line);
  }
}
