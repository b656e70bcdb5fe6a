import java.io.IOException;
import java.util.Arrays;

public class Main {
  /**
   * Optional: prints one step for the app's step player, e.g. {@code step("action", "look", "j", 3)}
   * prints {@code @step {"action": "look", "j": 3}}. Values: numbers, booleans, strings, int[] or long[].
   */
  static void step(Object... keysAndValues) {
    StringBuilder line = new StringBuilder("@step {");
    for (int k = 0; k + 1 < keysAndValues.length; k += 2) {
      if (k > 0) line.append(", ");
      line.append(toJson(keysAndValues[k])).append(": ").append(toJson(keysAndValues[k + 1]));
    }
    System.out.println(line.append('}'));
  }

  static String toJson(Object value) {
    if (value instanceof String) {
      return '"' + ((String) value).replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
    if (value instanceof int[]) return Arrays.toString((int[]) value);
    if (value instanceof long[]) return Arrays.toString((long[]) value);
    return String.valueOf(value);
  }

  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(data[0]);
    long target = Long.parseLong(data[1]);
    long[] values = new long[n];
    for (int k = 0; k < n; k++) values[k] = Long.parseLong(data[2 + k]);
    // TODO: find positions i < j with values[i] + values[j] == target (smallest j, then smallest i)
    // and print them counting from 1, or "0 0" when there is no such pair.
    System.out.println("0 0");
  }
}
