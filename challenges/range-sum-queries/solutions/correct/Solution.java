import java.util.*;

class Solution {
    public static long[] rangeSums(long[] nums, long[][] queries) {
        int n = nums.length;
        long[] values = nums.clone(); // the current values, to know each update's change
        long[] tree = new long[n + 1]; // Fenwick tree: tree[i] sums values[i - (i & -i) .. i - 1]
        for (int i = 0; i < n; i++) add(tree, i, values[i]);
        long[] answers = new long[queries.length];
        int count = 0;
        for (long[] q : queries) {
            int a = (int) q[1];
            if (q[0] == 0) {
                add(tree, a, q[2] - values[a]);
                values[a] = q[2];
            } else {
                answers[count++] = prefix(tree, (int) q[2] + 1) - prefix(tree, a);
            }
        }
        return Arrays.copyOf(answers, count);
    }

    private static void add(long[] tree, int i, long delta) {
        for (i++; i < tree.length; i += i & -i) tree[i] += delta;
    }

    private static long prefix(long[] tree, int i) { // values[0] + ... + values[i - 1]
        long total = 0;
        for (; i > 0; i -= i & -i) total += tree[i];
        return total;
    }
}
