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
    for (int i = 1; i < n; i++) {
      for (int j = i; j > 0; j--) {
        step("compare", new int[] {j - 1, j}, array);
        // Too slow: no stop once the item is in place, so a sorted array costs n²/2 compares.
        if (array[j - 1] <= array[j]) continue;
        int larger = array[j - 1];
        array[j - 1] = array[j];
        array[j] = larger;
        step("swap", new int[] {j - 1, j}, array);
      }
    }
    step("done", new int[] {}, array);
    StringJoiner line = new StringJoiner(" ");
    for (int value : array) line.add(Integer.toString(value));
    System.out.println(line);
  }
}
