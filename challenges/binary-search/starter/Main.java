import java.io.IOException;

public class Main {
  // Prints one step line: "@step " and a JSON object with the step's fields (a null mid prints as null).
  static void step(int low, int high, Integer mid, boolean found) {
    System.out.println(
        "@step {\"low\": " + low + ", \"high\": " + high + ", \"mid\": " + mid + ", \"found\": " + found + "}");
  }

  static int search(int[] array, int target) {
    // TODO: binary search for target in array. Report each probe, and the end of a failed search:
    //   step(low, high, mid, array[mid] == target);
    //   step(low, high, null, false);
    return -1;
  }

  public static void main(String[] args) throws IOException {
    String[] tokens = new String(System.in.readAllBytes()).trim().split("\\s+");
    int n = Integer.parseInt(tokens[0]);
    int[] array = new int[n];
    for (int k = 0; k < n; k++) array[k] = Integer.parseInt(tokens[1 + k]);
    int target = Integer.parseInt(tokens[1 + n]);
    System.out.println(search(array, target));
  }
}
