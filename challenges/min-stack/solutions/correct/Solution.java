import dsa.Recorder;
import java.util.*;

class Solution {
    static final int STEPPED = 50; // operations that record steps

    public static long[] minStack(String[] ops, long[] values) {
        Recorder rec = new Recorder();
        List<Long> stack = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        long[] mins = new long[ops.length]; // mins[k]: the minimum of stack[0..k]
        long[] answers = new long[ops.length];
        int answerCount = 0;
        long nextId = 0;
        for (int i = 0; i < ops.length; i++) {
            switch (ops[i]) {
                case "push" -> {
                    long value = values[i];
                    int size = stack.size();
                    mins[size] = size == 0 ? value : Math.min(value, mins[size - 1]);
                    stack.add(value);
                    ids.add(nextId++);
                    if (i < STEPPED) record(rec, "push", stack, ids, ids.get(size), value, mins);
                }
                case "pop" -> {
                    long value = stack.remove(stack.size() - 1);
                    long id = ids.remove(ids.size() - 1);
                    if (i < STEPPED) record(rec, "pop", stack, ids, id, value, mins);
                }
                case "top" -> answers[answerCount++] = stack.get(stack.size() - 1);
                default -> answers[answerCount++] = mins[stack.size() - 1];
            }
        }
        return Arrays.copyOf(answers, answerCount);
    }

    static void record(Recorder rec, String action, List<Long> stack, List<Long> ids, long movedId, long movedValue,
                       long[] mins) {
        Long minimum = stack.isEmpty() ? null : mins[stack.size() - 1];
        Map<String, Object> moved = new LinkedHashMap<>();
        moved.put("id", movedId);
        moved.put("value", movedValue);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stack", stack);
        fields.put("ids", ids);
        fields.put("moved", moved);
        fields.put("min", minimum);
        String verb = action.equals("push") ? "Push " : "Pop ";
        rec.step(action, fields, verb + movedValue
            + (minimum == null ? ": the stack is empty" : ": the minimum is " + minimum));
    }
}
