// attack: process bomb from the JVM: many threads each start shells as fast as they can, never waiting for them
// limits: cpu_ms=2000 wall_ms=4000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
// survivors: atkbomb-java
public class ForkBomb {
  public static void main(String[] args) throws Exception {
    for (int i = 0; i < 8; i++) {
      new Thread(() -> {
        while (true) {
          try {
            new ProcessBuilder("/bin/sh", "-c", "sleep 30; : atkbomb-java").start();
          } catch (Throwable error) {
            Thread.onSpinWait();
          }
        }
      }).start();
    }
  }
}
