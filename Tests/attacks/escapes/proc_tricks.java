// attack: read /proc/1/root/etc/shadow, walk /proc/*/cwd and /proc/*/root, and list inherited descriptors from the JVM
// expect: status in [ok]; stdout contains "done"; stdout lacks "HOST"; stdout lacks "root:*:"
import java.io.File;
import java.nio.file.*;

public class ProcTricks {
  static final String[] HOST_ONLY = {"etc/shadow", "root", "home", "var", "sys/kernel", "run", "etc/machine-id", "boot"};

  static void probe(String base) {
    for (String name : HOST_ONLY) {
      if (Files.exists(Paths.get(base, name), LinkOption.NOFOLLOW_LINKS)) System.out.println("HOST " + base + "/" + name);
    }
    try {
      System.out.println("HOST shadow " + Files.readString(Paths.get(base, "etc/shadow")));
    } catch (Exception expected) {
    }
  }

  public static void main(String[] args) throws Exception {
    probe("/proc/1/root");
    for (File entry : new File("/proc").listFiles()) {
      if (!entry.getName().matches("\\d+")) continue;
      probe(entry.getPath() + "/root");
      probe(entry.getPath() + "/cwd");
      probe(entry.getPath() + "/cwd/../../../..");
    }
    for (File fd : new File("/proc/self/fd").listFiles()) {
      try {
        String target = Files.readSymbolicLink(fd.toPath()).toString();
        if (target.startsWith("/") && !target.startsWith("/usr/") && !target.startsWith("/proc/")
            && !target.startsWith("/dev/") && !target.startsWith("/box/") && !target.startsWith("/etc/java")
            && !target.startsWith("/tmp/")) {
          System.out.println("HOST fd " + fd.getName() + " " + target);
        }
      } catch (Exception gone) {
      }
    }
    System.out.println("done");
  }
}
