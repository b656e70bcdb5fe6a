import heapq


def top_k_frequent(items: list[int], k: int) -> list[int]:
    counts: dict[int, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    # A min-heap of the k best so far, ordered so that its top is the worst: the smallest count,
    # then the larger value (hence -value).
    heap: list[tuple[int, int]] = []
    for value, count in counts.items():
        heapq.heappush(heap, (count, -value))
        if len(heap) > k:
            heapq.heappop(heap)
    best = sorted(heap, key=lambda pair: (-pair[0], -pair[1]))
    return [-negated for _, negated in best]
