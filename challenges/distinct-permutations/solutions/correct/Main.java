import java.io.IOException;
import java.util.Arrays;

public class Main {
  static long[] values;
  static boolean[] used;
  static long[] prefix;
  static StringBuilder out = new StringBuilder();

  static void extend(int length) {
    if (length == values.length) {
      for (int k = 0; k < length; k++) out.append(k > 0 ? " " : "").append(prefix[k]);
      out.append('\n');
      return;
    }
    for (int k = 0; k < values.length; k++) {
      // Equal values are tried in sorted order only, so each distinct value is tried once here.
      if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue;
      used[k] = true;
      prefix[length] = values[k];
      extend(length + 1);
      used[k] = false;
    }
  }

  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(data[0]);
    values = new long[n];
    for (int k = 0; k < n; k++) values[k] = Long.parseLong(data[1 + k]);
    Arrays.sort(values);
    used = new boolean[n];
    prefix = new long[n];
    extend(0);
    System.out.print(out);
  }
}
