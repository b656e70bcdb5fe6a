import dsa.Recorder;
import java.util.*;

class Solution {
    static final int STEPPED = 50; // indices whose operations record steps

    public static long[] windowMax(long[] items, long k) {
        Recorder rec = new Recorder();
        Deque<Integer> window = new ArrayDeque<>(); // indices, their items decreasing from the front
        long[] answers = new long[Math.max(0, items.length - (int) k + 1)];
        int answerCount = 0;
        for (int i = 0; i < items.length; i++) {
            if (!window.isEmpty() && window.peekFirst() < i - k /* wrong: one index too late */) {
                int left = window.pollFirst();
                if (i < STEPPED) record(rec, "pop_front", window, left, "Index " + left + " has left the window: drop it from the front");
            }
            while (!window.isEmpty() && items[window.peekLast()] <= items[i]) {
                int smaller = window.pollLast();
                if (i < STEPPED) {
                    record(rec, "pop_back", window, smaller,
                        items[smaller] + " at index " + smaller + " is not larger than " + items[i] + ": drop it");
                }
            }
            window.addLast(i);
            if (i < STEPPED) record(rec, "push_back", window, i, "Push index " + i + " (" + items[i] + ") at the back");
            if (i >= k - 1) answers[answerCount++] = items[window.peekFirst()];
        }
        return answers;
    }

    static void record(Recorder rec, String action, Deque<Integer> window, int index, String caption) {
        List<Integer> deque = new ArrayList<>(window);
        Map<String, Object> moved = new LinkedHashMap<>();
        moved.put("id", index);
        moved.put("value", index);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("deque", deque);
        fields.put("ids", deque);
        fields.put("moved", moved);
        rec.step(action, fields, caption);
    }
}
