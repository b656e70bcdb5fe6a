// attack: start processes with ProcessBuilder: a root shell (su), /etc/shadow and host homes, a nested sandbox (unshare), the daemon over TCP (curl, bash /dev/tcp)
// expect: status in [ok]; stdout contains "uid=1000"; stdout lacks "uid=0("; stdout lacks "SUCCEEDED"; stdout contains "done"
import java.util.concurrent.TimeUnit;

public class ProcessAttack {
  static String run(String... argv) throws Exception {
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes()).trim();
    process.waitFor(4, TimeUnit.SECONDS);
    return process.exitValue() + " " + (output.length() > 120 ? output.substring(0, 120) : output);
  }

  static void attempt(String name, String... argv) {
    try {
      String result = run(argv);
      System.out.println(name + ": " + (result.startsWith("0 ") ? "SUCCEEDED " : "refused ") + result);
    } catch (Exception error) {
      System.out.println(name + ": refused " + error.getMessage());
    }
  }

  public static void main(String[] args) throws Exception {
    System.out.println(run("/usr/bin/id"));
    attempt("read shadow", "/bin/cat", "/etc/shadow");
    attempt("list homes", "/bin/ls", "/home", "/root");
    attempt("su", "/usr/bin/su", "-c", "id", "root");
    attempt("unshare", "/usr/bin/unshare", "-r", "/usr/bin/id");
    attempt("curl daemon", "/usr/bin/curl", "-sS", "-m", "2", "http://127.0.0.1:@DAEMON_PORT@/healthz");
    attempt("bash tcp", "/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/@DAEMON_PORT@");
    System.out.println("done");
  }
}
