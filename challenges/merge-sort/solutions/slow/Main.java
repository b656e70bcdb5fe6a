import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.StringJoiner;

public class Main {
  static final PrintWriter out = new PrintWriter(new BufferedOutputStream(System.out));

  // One step line per comparison of two items.
  static void compare() {
    out.println("@step {\"action\": \"compare\"}");
  }

  public static void main(String[] args) throws IOException {
    // Insertion sort: right answers, but about n²/4 comparisons on random input.
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    long[] items = new long[n];
    for (int k = 0; k < n; k++) items[k] = Long.parseLong(tokens[1 + k]);
    for (int i = 1; i < n; i++) {
      for (int j = i; j > 0; j--) {
        compare();
        if (items[j - 1] <= items[j]) break;
        long held = items[j - 1];
        items[j - 1] = items[j];
        items[j] = held;
      }
    }
    StringJoiner line = new StringJoiner(" ");
    for (long item : items) line.add(Long.toString(item));
    out.println(line);
    out.flush();
  }
}
