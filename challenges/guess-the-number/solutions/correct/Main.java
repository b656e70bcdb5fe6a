import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    long n = Long.parseLong(in.readLine().trim());
    long low = 1, high = n;
    while (low < high) {
      long middle = low + (high - low) / 2;
      System.out.println("? " + middle);
      System.out.flush();
      String reply = in.readLine().trim();
      if (reply.equals("=")) {
        low = high = middle;
      } else if (reply.equals("<")) {
        high = middle - 1;
      } else {
        low = middle + 1;
      }
    }
    System.out.println("! " + low);
    System.out.flush();
  }
}
