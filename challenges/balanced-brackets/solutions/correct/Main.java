import java.io.IOException;
import java.util.ArrayDeque;

public class Main {
  static boolean balanced(String text) {
    ArrayDeque<Character> stack = new ArrayDeque<>();
    for (char bracket : text.toCharArray()) {
      switch (bracket) {
        case '(': case '[': case '{':
          stack.push(bracket);
          break;
        default:
          char opener = bracket == ')' ? '(' : bracket == ']' ? '[' : '{';
          if (stack.isEmpty() || stack.pop() != opener) return false;
      }
    }
    return stack.isEmpty();
  }

  public static void main(String[] args) throws IOException {
    String[] data = new String(System.in.readAllBytes()).trim().split("\\s+");
    int count = Integer.parseInt(data[0]);
    StringBuilder out = new StringBuilder();
    for (int k = 1; k <= count; k++) out.append(balanced(data[k]) ? "YES" : "NO").append('\n');
    System.out.print(out);
  }
}
