import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] mergeSort(long[] items) {
        return sortPart(items, new Recorder());
    }

    private static long[] sortPart(long[] items, Recorder rec) {
        if (items.length < 2) return items;
        int middle = items.length / 2;
        long[] left = sortPart(Arrays.copyOfRange(items, 0, middle), rec);
        long[] right = sortPart(Arrays.copyOfRange(items, middle, items.length), rec);
        long[] merged = new long[left.length + right.length];
        int i = 0, j = 0, k = 0;
        while (i < left.length && j < right.length) {
            rec.step("compare", Map.of("values", List.of(left[i], right[j])));
            if (left[i] < right[j]) {
                merged[k++] = left[i++];
            } else if (left[i] > right[j]) {
                merged[k++] = right[j++];
            } else {
                // Wrong on purpose: two equal items are written once, so a duplicate is lost.
                merged[k++] = left[i++];
                j++;
            }
        }
        while (i < left.length) merged[k++] = left[i++];
        while (j < right.length) merged[k++] = right[j++];
        return Arrays.copyOf(merged, k);
    }
}
