import dsa.Recorder;

class Solution {
    public static long binarySearch(long[] items, long target) {
        Recorder rec = new Recorder();
        int low = 0, high = items.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            rec.probe(low, (long) mid, high, items[mid] == target);
            if (items[mid] == target) return mid;
            if (items[mid] < target) low = mid + 1;
            else high = mid - 1;
        }
        rec.probe(low, null, high, false);
        return -1;
    }
}
