import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    long n = Long.parseLong(in.readLine().trim());
    // Ask with System.out.println(...) and System.out.flush(), then read a reply: "k u1 ... uk" with in.readLine().
    System.out.println("! " + -1);
    System.out.flush();
  }
}
