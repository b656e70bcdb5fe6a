import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

public class Main {
  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(data[0]);
    int m = Integer.parseInt(data[1]);
    List<List<Integer>> successors = new ArrayList<>();
    for (int node = 0; node <= n; node++) successors.add(new ArrayList<>());
    int[] inDegree = new int[n + 1];
    for (int k = 0; k < m; k++) {
      int u = Integer.parseInt(data[2 + 2 * k]);
      int v = Integer.parseInt(data[3 + 2 * k]);
      successors.get(u).add(v);
      inDegree[v]++;
    }
    int[] order = new int[n];
    int size = 0;
    for (int node = 1; node <= n; node++) if (inDegree[node] == 0) order[size++] = node;
    // order doubles as the queue: the nodes after index head are ready but not yet expanded.
    for (int head = 0; head < size; head++) {
      for (int successor : successors.get(order[head])) {
        if (--inDegree[successor] == 0) order[size++] = successor;
      }
    }
    StringBuilder out = new StringBuilder();
    for (int k = 0; k < size; k++) out.append(k > 0 ? " " : "").append(order[k]);
    // Mistake: a cycle is never detected; the tasks on it are silently left out.
    System.out.println(out);
  }
}
