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

    List<Integer> order = new ArrayList<>();
    // TODO: breadth-first search from source. Report the start, then each node taken from the queue:
    //   step(null, List.of(source), List.of(source));
    //   step(node, visited, queue);   (the queue, front first)
    StringJoiner line = new StringJoiner(" ");
    for (int node : order) line.add(Integer.toString(node));
    System.out.println(line);
  }
}
