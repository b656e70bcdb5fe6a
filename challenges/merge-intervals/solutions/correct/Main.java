import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Main {
  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(data[0]);
    long[][] intervals = new long[n][];
    for (int k = 0; k < n; k++) {
      intervals[k] = new long[] {Long.parseLong(data[1 + 2 * k]), Long.parseLong(data[2 + 2 * k])};
    }
    Arrays.sort(intervals, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    List<long[]> merged = new ArrayList<>();
    for (long[] interval : intervals) {
      long[] current = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (current != null && interval[0] <= current[1]) {
        current[1] = Math.max(current[1], interval[1]);
      } else {
        merged.add(interval.clone());
      }
    }
    StringBuilder out = new StringBuilder();
    for (long[] interval : merged) out.append(interval[0]).append(' ').append(interval[1]).append('\n');
    System.out.print(out);
  }
}
