import dsa.Recorder;

class Solution {
    public static long[] insertionSort(long[] items) {
        Recorder rec = new Recorder(items);
        for (int i = 1; i < items.length; i++) {
            for (int j = i; j > 0; j--) {
                rec.compare(j - 1, j);
                if (rec.longAt(j - 1) < rec.longAt(j)) break;  // Wrong on purpose: equal items swap too.
                rec.swap(j - 1, j);
            }
        }
        rec.done();
        return rec.longs();
    }
}
