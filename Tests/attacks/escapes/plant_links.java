// attack: replace the compiled class directory /box/out with symlinks into the host canary once the JVM has loaded it
// expect: status in [ok]; stdout contains "relinked"
import java.io.File;
import java.nio.file.*;

public class PlantLinks {
  public static void main(String[] args) throws Exception {
    Path canary = Paths.get("@CANARY_DIR@");
    for (File file : new File("/box/out").listFiles()) {
      file.delete();
      Files.createSymbolicLink(file.toPath(), canary.resolve("keep.txt"));
    }
    Files.createSymbolicLink(Paths.get("/box/out/More.class"), canary);
    Files.move(Paths.get("/box/out"), Paths.get("/box/out-old"));
    Files.createSymbolicLink(Paths.get("/box/out"), canary);
    Files.createSymbolicLink(Paths.get("/tmp/hsperfdata_root"), canary);
    System.out.println("relinked");
  }
}
