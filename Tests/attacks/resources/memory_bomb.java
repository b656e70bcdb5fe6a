// attack: fill the Java heap with live arrays without end
// limits: memory_mb=128
// expect: status in [memory_limit]; elapsed_s < 15
import java.util.ArrayList;
import java.util.List;

public class MemoryBomb {
  public static void main(String[] args) {
    List<Object> held = new ArrayList<>();
    while (true) {
      held.add(new long[1 << 20]);
    }
  }
}
