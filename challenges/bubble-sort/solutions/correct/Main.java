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

  public static void main(String[] args) throws IOException {
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    int[] array = new int[n];
    for (int k = 0; k < n; k++) array[k] = Integer.parseInt(tokens[1 + k]);
    for (int donePasses = 0; donePasses < n - 1; donePasses++) {
      boolean swapped = false;
      for (int j = 0; j < n - 1 - donePasses; j++) {
        step("compare", new int[] {j, j + 1}, array);
        if (array[j] > array[j + 1]) {
          int larger = array[j];
          array[j] = array[j + 1];
          array[j + 1] = larger;
          swapped = true;
          step("swap", new int[] {j, j + 1}, array);
        }
      }
      if (!swapped) break;
    }
    step("done", new int[] {}, array);
    StringJoiner line = new StringJoiner(" ");
    for (int value : array) line.add(Integer.toString(value));
    System.out.println(line);
  }
}
