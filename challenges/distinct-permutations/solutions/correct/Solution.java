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
        for (int k = 0; k < values.length; k++) {
            // An equal value whose earlier copy is free would start a permutation already made.
            if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue;
            used[k] = true;
            prefix[length] = values[k];
            extend(values, used, prefix, length + 1, permutations);
            used[k] = false;
        }
    }
}
