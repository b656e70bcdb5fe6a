import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

public class Main {
  // Prints one step line: "@step " and a JSON object with the step's fields. A distance of -1 (not
  // reached yet) prints as null; a settle step passes edge == null, so it has no edge or relaxed field.
  static void step(String action, int current, int[] dist, int[] edge, boolean relaxed) {
    StringJoiner distances = new StringJoiner(", ", "[", "]");
    for (int d : dist) distances.add(d < 0 ? "null" : Integer.toString(d));
    String text = "@step {\"action\": \"" + action + "\", \"current\": " + current + ", \"dist\": " + distances;
    if (edge != null) {
      text += ", \"edge\": [" + edge[0] + ", " + edge[1] + ", " + edge[2] + "], \"relaxed\": " + relaxed;
    }
    System.out.println(text + "}");
  }

  public static void main(String[] args) throws IOException {
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    int m = Integer.parseInt(tokens[1]);
    int source = Integer.parseInt(tokens[2]);
    List<List<int[]>> outgoing = new ArrayList<>();
    for (int k = 0; k < n; k++) outgoing.add(new ArrayList<>());
    for (int k = 0; k < m; k++) {
      int u = Integer.parseInt(tokens[3 + 3 * k]);
      int v = Integer.parseInt(tokens[4 + 3 * k]);
      int w = Integer.parseInt(tokens[5 + 3 * k]);
      outgoing.get(u).add(new int[] {v, w});
    }
    for (List<int[]> edges : outgoing) {
      edges.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
    }

    int[] dist = new int[n];
    Arrays.fill(dist, -1); // -1: not reached yet
    dist[source] = 0;
    // TODO: Dijkstra from source. Report each node settled and each edge relaxed:
    //   step("settle", node, dist, null, false);
    //   step("relax", node, dist, new int[] {node, to, weight}, relaxed);
    StringJoiner line = new StringJoiner(" ");
    for (int d : dist) line.add(Integer.toString(d));
    System.out.println(line);
  }
}
