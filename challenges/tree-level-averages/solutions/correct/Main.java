import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

public class Main {
  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(data[0]);
    long[] values = new long[n];
    List<List<Integer>> children = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      values[k] = Long.parseLong(data[1 + k]);
      children.add(new ArrayList<>());
    }
    for (int child = 0; child < n; child++) {
      int parent = Integer.parseInt(data[1 + n + child]);
      if (parent >= 0) children.get(parent).add(child);
    }
    StringBuilder out = new StringBuilder();
    List<Integer> level = new ArrayList<>();
    if (n > 0) level.add(0);
    while (!level.isEmpty()) {
      long sum = 0;
      List<Integer> next = new ArrayList<>();
      for (int node : level) {
        sum += values[node];
        next.addAll(children.get(node));
      }
      out.append(String.format(Locale.ROOT, "%.9f", (double) sum / level.size())).append('\n');
      level = next;
    }
    System.out.print(out);
  }
}
