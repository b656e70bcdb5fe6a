// attack: read the host's environment and system properties from the JVM
// expect: status in [ok]; stdout contains "LANG"; stdout lacks "DSA_ATTACK_HOST_SECRET"; stdout lacks "DSA_RUN_DATA"; stdout lacks "user.home=/root"
import java.nio.file.*;

public class Environment {
  public static void main(String[] args) throws Exception {
    System.out.println(System.getenv());
    System.out.println("user.home=" + System.getProperty("user.home") + " user.name=" + System.getProperty("user.name"));
    try {
      System.out.println(new String(Files.readAllBytes(Paths.get("/proc/1/environ"))).replace('\0', ' '));
    } catch (Exception error) {
      System.out.println("pid 1 environ: " + error);
    }
  }
}
