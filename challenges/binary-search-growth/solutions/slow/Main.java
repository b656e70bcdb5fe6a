import java.io.IOException;

public class Main {
  static final StringBuilder out = new StringBuilder();

  // One step line per item looked at.
  static void probe(int index) {
    out.append("@step {\"action\": \"probe\", \"index\": ").append(index).append("}\n");
  }

  public static void main(String[] args) throws IOException {
    // A scan from the start: right answers, about n probes.
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    long[] items = new long[n];
    for (int k = 0; k < n; k++) items[k] = Long.parseLong(tokens[1 + k]);
    long target = Long.parseLong(tokens[1 + n]);
    int answer = -1;
    for (int index = 0; index < n; index++) {
      probe(index);
      if (items[index] == target) {
        answer = index;
        break;
      }
      if (items[index] > target) break;
    }
    out.append(answer).append('\n');
    System.out.print(out);
  }
}
