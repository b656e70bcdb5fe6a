import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

public class Main {
  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(data[0]);
    long target = Long.parseLong(data[1]);
    long[] values = new long[n];
    for (int k = 0; k < n; k++) values[k] = Long.parseLong(data[2 + k]);
    System.out.println(solve(values, target));
  }

  static String solve(long[] values, long target) {
    Map<Long, Integer> firstPosition = new HashMap<>();
    for (int j = 0; j < values.length; j++) {
      // Mistake: the value is stored before the look-up, so it can pair with itself.
      firstPosition.putIfAbsent(values[j], j);
      Integer partner = firstPosition.get(target - values[j]);
      if (partner != null) return (partner + 1) + " " + (j + 1);
    }
    return "0 0";
  }
}
