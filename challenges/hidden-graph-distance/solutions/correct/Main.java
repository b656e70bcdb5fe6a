import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.StringTokenizer;

public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    int n = Integer.parseInt(in.readLine().trim());
    if (n == 1) {
      System.out.println("! 0");
      System.out.flush();
      return;
    }
    int[] distance = new int[n + 1];
    Arrays.fill(distance, -1);
    ArrayDeque<Integer> frontier = new ArrayDeque<>();
    distance[1] = 0;
    frontier.add(1);
    while (!frontier.isEmpty()) {
      int node = frontier.poll();
      System.out.println("? " + node);
      System.out.flush();
      StringTokenizer reply = new StringTokenizer(in.readLine());
      int count = Integer.parseInt(reply.nextToken());
      for (int index = 0; index < count; index++) {
        int neighbour = Integer.parseInt(reply.nextToken());
        if (distance[neighbour] >= 0) continue;
        distance[neighbour] = distance[node] + 1;
        if (neighbour == n) {
          System.out.println("! " + distance[neighbour]);
          System.out.flush();
          return;
        }
        frontier.add(neighbour);
      }
    }
    System.out.println("! -1");
    System.out.flush();
  }
}
