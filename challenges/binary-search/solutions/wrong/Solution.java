import dsa.Recorder;

class Solution {
    public static long binarySearch(long[] items, long target) {
        Recorder rec = new Recorder();
        long low = 0, high = items.length - 1;
        // Wrong on purpose: stops when low == high, before probing the last candidate.
        while (low < high) {
            long mid = low + (high - low) / 2;
            rec.probe(low, mid, high, items[(int) mid] == target);
            if (items[(int) mid] == target) return mid;
            if (items[(int) mid] < target) low = mid + 1;
            else high = mid - 1;
        }
        rec.probe(low, null, high, false);
        return -1;
    }
}
