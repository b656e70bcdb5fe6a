// attack: outlive the box: a child that ignores signals, left running when the program returns (here from the JVM)
// expect: status in [ok]; stdout contains "alive in box"
// survivors: atksv-java
import java.nio.file.*;

public class SurviveChild {
  public static void main(String[] args) throws Exception {
    Process child = new ProcessBuilder("/bin/sh", "-c", "trap '' TERM HUP; sleep 60; : atksv-java").start();
    Thread.sleep(300);
    System.out.println(child.isAlive() ? "alive in box as pid " + child.pid() : "child died");
    // Returning from main with a live child: the JVM exits and does not kill it.
  }
}
