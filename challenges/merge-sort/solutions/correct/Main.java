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

  static void mergeSort(long[] items, long[] scratch, int lo, int hi) {
    if (hi - lo < 2) return;
    int mid = lo + (hi - lo) / 2;
    mergeSort(items, scratch, lo, mid);
    mergeSort(items, scratch, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
      compare();
      scratch[k++] = items[i] <= items[j] ? items[i++] : items[j++];
    }
    while (i < mid) scratch[k++] = items[i++];
    while (j < hi) scratch[k++] = items[j++];
    System.arraycopy(scratch, lo, items, lo, hi - lo);
  }

  public static void main(String[] args) throws IOException {
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    long[] items = new long[n];
    for (int k = 0; k < n; k++) items[k] = Long.parseLong(tokens[1 + k]);
    mergeSort(items, new long[n], 0, n);
    StringJoiner line = new StringJoiner(" ");
    for (long item : items) line.add(Long.toString(item));
    out.println(line);
    out.flush();
  }
}
