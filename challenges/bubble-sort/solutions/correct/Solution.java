import dsa.Recorder;

class Solution {
    public static long[] bubbleSort(long[] items) {
        Recorder rec = new Recorder(items);
        int n = items.length;
        for (int donePasses = 0; donePasses < n - 1; donePasses++) {
            boolean swapped = false;
            for (int j = 0; j < n - 1 - donePasses; j++) {
                rec.compare(j, j + 1);
                if (rec.longAt(j) > rec.longAt(j + 1)) {
                    rec.swap(j, j + 1);
                    swapped = true;
                }
            }
            if (!swapped) break;
        }
        rec.done();
        return rec.longs();
    }
}
