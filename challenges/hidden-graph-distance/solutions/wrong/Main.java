import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.StringTokenizer;

// A depth-first search: it finds a path to node n, but not always a shortest one.
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    int n = Integer.parseInt(in.readLine().trim());
    boolean[] seen = new boolean[n + 1];
    ArrayDeque<int[]> stack = new ArrayDeque<>();
    seen[1] = true;
    stack.push(new int[] {1, 0});
    while (!stack.isEmpty()) {
      int[] top = stack.pop();
      if (top[0] == n) {
        System.out.println("! " + top[1]);
        System.out.flush();
        return;
      }
      System.out.println("? " + top[0]);
      System.out.flush();
      StringTokenizer reply = new StringTokenizer(in.readLine());
      int count = Integer.parseInt(reply.nextToken());
      int[] neighbours = new int[count];
      for (int index = 0; index < count; index++) neighbours[index] = Integer.parseInt(reply.nextToken());
      for (int index = count - 1; index >= 0; index--) {
        if (seen[neighbours[index]]) continue;
        seen[neighbours[index]] = true;
        stack.push(new int[] {neighbours[index], top[1] + 1});
      }
    }
    System.out.println("! -1");
    System.out.flush();
  }
}
