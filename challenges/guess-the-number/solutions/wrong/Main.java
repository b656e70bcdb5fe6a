import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

// Asks every number in turn: right in the end, but far more questions than a binary search.
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    long n = Long.parseLong(in.readLine().trim());
    for (long guess = 1; guess <= n; guess++) {
      System.out.println("? " + guess);
      System.out.flush();
      String reply = in.readLine();
      if (reply == null) return;
      if (reply.trim().equals("=")) {
        System.out.println("! " + guess);
        System.out.flush();
        return;
      }
    }
  }
}
