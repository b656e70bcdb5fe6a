import dsa.Recorder;
import java.util.List;
import java.util.Map;

class Solution {
    private final Recorder rec = new Recorder();
    private long[] array;

    private void step(String action, List<Integer> active) {
        rec.step(action, Map.of("active", active, "array", array));
    }

    public long[] quickSort(long[] items) {
        array = items.clone();
        sort(0, array.length - 1);
        step("done", List.of());
        return array;
    }

    private void sort(int lo, int hi) {
        if (lo >= hi) return;
        long pivot = array[hi];
        step("pivot", List.of(hi));
        int i = lo;
        for (int j = lo; j < hi; j++) {
            step("compare", List.of(j, hi));
            // Wrong on purpose: items equal to the pivot stay in the right part.
            if (array[j] < pivot) {
                if (i != j) {
                    long t = array[i]; array[i] = array[j]; array[j] = t;
                    step("swap", List.of(i, j));
                }
                i++;
            }
        }
        long t = array[i]; array[i] = array[hi]; array[hi] = t;
        step("place", List.of(i));
        sort(lo, i - 1);
        sort(i + 1, hi);
    }
}
