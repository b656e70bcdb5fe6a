import java.util.*;

class Solution {
    public static long[][] distinctPermutations(long[] items) {
        long[] values = items.clone();
        Arrays.sort(values);
        List<long[]> permutations = new ArrayList<>();
        extend(values, new boolean[values.length], new long[values.length], 0, permutations);
        return permutations.toArray(new long[0][]);
    }

    private static void extend(long[] values, boolean[] used, long[] prefix, int length, List<long[]> permutations) {
        if (length == values.length) {
            permutations.add(prefix.clone());
            return;
        }
        // Wrong on purpose: every position is tried, so equal values give the same permutation several times.
        for (int k = 0; k < values.length; k++) {
            if (used[k]) continue;
            used[k] = true;
            prefix[length] = values[k];
            extend(values, used, prefix, length + 1, permutations);
            used[k] = false;
        }
    }
}
