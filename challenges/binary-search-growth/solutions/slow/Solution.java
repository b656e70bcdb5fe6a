import dsa.Recorder;

class Solution {
    // A scan from the start: right answers, about n probes.
    public static long binarySearch(long[] items, long target) {
        Recorder rec = new Recorder();
        for (int index = 0; index < items.length; index++) {
            rec.probe(index, (long) index, items.length - 1, items[index] == target);
            if (items[index] == target) return index;
            if (items[index] > target) break;
        }
        return -1;
    }
}
