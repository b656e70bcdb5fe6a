import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] mergeSort(long[] items) {
        long[] sorted = items.clone();
        sortPart(sorted, new long[sorted.length], 0, sorted.length, new Recorder());
        return sorted;
    }

    /** Sorts items[from..to) using scratch, of the same length. */
    private static void sortPart(long[] items, long[] scratch, int from, int to, Recorder rec) {
        if (to - from < 2) return;
        int middle = (from + to) / 2;
        sortPart(items, scratch, from, middle, rec);
        sortPart(items, scratch, middle, to, rec);
        int i = from, j = middle, k = from;
        while (i < middle && j < to) {
            rec.step("compare", Map.of("values", List.of(items[i], items[j])));
            if (items[i] <= items[j]) scratch[k++] = items[i++];
            else scratch[k++] = items[j++];
        }
        while (i < middle) scratch[k++] = items[i++];
        while (j < to) scratch[k++] = items[j++];
        System.arraycopy(scratch, from, items, from, to - from);
    }
}
