// attack: thread bomb in the JVM: start sleeping threads until the JVM cannot make more
// limits: cpu_ms=2000 wall_ms=5000
// expect: status in [ok, runtime_error, memory_limit, time_limit]; elapsed_s < 20; output lacks "threads: 10000"
public class ThreadBomb {
  public static void main(String[] args) {
    int started = 0;
    try {
      for (; started < 10000; started++) {
        Thread thread = new Thread(() -> {
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException ignored) {
          }
        });
        thread.setDaemon(true);
        thread.start();
      }
    } catch (Throwable error) {
      System.out.println("stopped: " + error);
    }
    System.out.println("threads: " + started);
  }
}
