import java.util.*;

class Solution {
    public static long[] topKFrequent(long[] items, long k) {
        Map<Long, Integer> counts = new LinkedHashMap<>();
        for (long item : items) counts.merge(item, 1, Integer::sum);
        // Wrong: a stable sort by count alone keeps tied values in the order they first appear.
        List<Map.Entry<Long, Integer>> ranked = new ArrayList<>(counts.entrySet());
        ranked.sort((a, b) -> b.getValue() - a.getValue());
        long[] answer = new long[(int) Math.min(k, ranked.size())];
        for (int i = 0; i < answer.length; i++) answer[i] = ranked.get(i).getKey();
        return answer;
    }
}
