import dsa.Recorder;
import java.util.*;

class Solution {
    public static long[] pushAll(long[] values) {
        Recorder rec = new Recorder();
        int capacity = 1, size = 0;
        long[] buffer = new long[capacity];
        long[] capacities = new long[values.length];
        for (int k = 0; k < values.length; k++) {
            if (size == capacity) {
                capacity = capacity * 2;
                long[] bigger = new long[capacity];
                for (int i = 0; i < size; i++) {
                    bigger[i] = buffer[i];
                    rec.step("copy", Map.of("index", i));
                }
                buffer = bigger;
            }
            buffer[size++] = values[k];
            capacities[k] = capacity;
        }
        return capacities;
    }
}
