import java.io.IOException;

public class Main {
  static final StringBuilder out = new StringBuilder();

  // One step line per item looked at.
  static void probe(int index) {
    out.append("@step {\"action\": \"probe\", \"index\": ").append(index).append("}\n");
  }

  public static void main(String[] args) throws IOException {
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    long[] items = new long[n];
    for (int k = 0; k < n; k++) items[k] = Long.parseLong(tokens[1 + k]);
    long target = Long.parseLong(tokens[1 + n]);
    int answer = -1;
    int low = 0, high = n - 1;
    while (low <= high) {
      int middle = low + (high - low) / 2;
      probe(middle);
      if (items[middle] == target) {
        answer = middle;
        break;
      }
      if (items[middle] < target) low = middle + 1;
      else high = middle - 1;
    }
    out.append(answer).append('\n');
    System.out.print(out);
  }
}
