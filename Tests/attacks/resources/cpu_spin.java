// attack: spin 16 JVM threads at once
// limits: cpu_ms=2000 wall_ms=10000
// expect: status in [time_limit]; elapsed_s < 9; cpu_ms >= 1500; cpu_ms < 5000
public class CpuSpin {
  static volatile long sink;

  public static void main(String[] args) {
    for (int i = 0; i < 16; i++) {
      new Thread(() -> {
        long x = 0;
        while (true) sink = x++;
      }).start();
    }
  }
}
