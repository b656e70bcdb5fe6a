import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

public class Main {
  // Prints one step line: "@step " and a JSON object with the step's fields (a null current prints as null).
  static void step(Integer current, List<Integer> visited, List<Integer> frontier) {
    System.out.println(
        "@step {\"current\": " + current + ", \"visited\": " + json(visited) + ", \"frontier\": " + json(frontier)
            + "}");
  }

  static String json(List<Integer> values) {
    StringJoiner text = new StringJoiner(", ", "[", "]");
    for (int value : values) text.add(Integer.toString(value));
    return text.toString();
  }

  public static void main(String[] args) throws IOException {
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    int m = Integer.parseInt(tokens[1]);
    int source = Integer.parseInt(tokens[2]);
    List<List<Integer>> neighbours = new ArrayList<>();
    for (int k = 0; k < n; k++) neighbours.add(new ArrayList<>());
    for (int k = 0; k < m; k++) {
      int u = Integer.parseInt(tokens[3 + 2 * k]);
      int v = Integer.parseInt(tokens[4 + 2 * k]);
      neighbours.get(u).add(v);
      neighbours.get(v).add(u);
    }
    for (List<Integer> adjacent : neighbours) Collections.sort(adjacent);

    // The queue keeps every node ever queued: it is the visited order, and its tail from head the frontier.
    boolean[] seen = new boolean[n];
    seen[source] = true;
    List<Integer> queue = new ArrayList<>();
    queue.add(source);
    int head = 0;
    step(null, queue, queue.subList(head, queue.size()));
    // Every neighbour looked at is counted, for the growth grade (@count).
    long checks = 0;
    while (head < queue.size()) {
      int node = queue.get(head++);
      for (int neighbour : neighbours.get(node)) {
        checks++;
        if (!seen[neighbour]) {
          seen[neighbour] = true;
          queue.add(neighbour);
        }
      }
      step(node, queue, queue.subList(head, queue.size()));
    }
    System.out.println("@count " + checks);
    StringJoiner line = new StringJoiner(" ");
    for (int node : queue) line.add(Integer.toString(node));
    System.out.println(line);
  }
}
