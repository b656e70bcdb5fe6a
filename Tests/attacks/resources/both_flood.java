// attack: flood stdout and stderr at once (here from two JVM threads)
// limits: output_kb=64
// expect: status in [output_limit]; elapsed_s < 15
public class BothFlood {
  public static void main(String[] args) {
    String line = "J".repeat(4095);
    new Thread(() -> {
      while (true) System.err.println(line);
    }).start();
    while (true) System.out.println(line);
  }
}
