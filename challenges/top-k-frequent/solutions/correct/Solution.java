import java.util.*;

class Solution {
    public static long[] topKFrequent(long[] items, long k) {
        Map<Long, Integer> counts = new HashMap<>();
        for (long item : items) counts.merge(item, 1, Integer::sum);
        // The worst of the k best on top: the smallest count, then the larger value.
        Comparator<Map.Entry<Long, Integer>> worstFirst = Comparator.<Map.Entry<Long, Integer>>comparingInt(Map.Entry::getValue)
            .thenComparing(Map.Entry::getKey, Comparator.reverseOrder());
        PriorityQueue<Map.Entry<Long, Integer>> heap = new PriorityQueue<>(worstFirst);
        for (Map.Entry<Long, Integer> entry : counts.entrySet()) {
            heap.add(entry);
            if (heap.size() > k) heap.poll();
        }
        long[] answer = new long[heap.size()];
        for (int i = answer.length - 1; i >= 0; i--) answer[i] = heap.poll().getKey();
        return answer;
    }
}
