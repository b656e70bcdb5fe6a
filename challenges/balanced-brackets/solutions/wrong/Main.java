import java.io.IOException;

public class Main {
  static boolean balanced(String text) {
    // Mistake: one counter per kind checks the numbers of brackets but not how they nest.
    int round = 0, square = 0, curly = 0;
    for (char bracket : text.toCharArray()) {
      switch (bracket) {
        case '(': round++; break;
        case '[': square++; break;
        case '{': curly++; break;
        case ')': round--; break;
        case ']': square--; break;
        default: curly--;
      }
      if (round < 0 || square < 0 || curly < 0) return false;
    }
    return round == 0 && square == 0 && curly == 0;
  }

  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int count = Integer.parseInt(data[0]);
    StringBuilder out = new StringBuilder();
    for (int k = 1; k <= count; k++) out.append(balanced(data[k]) ? "YES" : "NO").append('\n');
    System.out.print(out);
  }
}
