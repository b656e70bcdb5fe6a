def kth_largest(nums: list[int], k: int) -> int:
    comparisons = 0  # comparisons of two values, for the growth grade

    def less(a: int, b: int) -> bool:
        nonlocal comparisons
        comparisons += 1
        return a < b

    heap: list[int] = []  # a min-heap of the k largest values seen so far

    def push(value: int) -> None:
        heap.append(value)
        i = len(heap) - 1
        while i > 0 and less(heap[i], heap[(i - 1) // 2]):
            parent = (i - 1) // 2
            heap[i], heap[parent] = heap[parent], heap[i]
            i = parent

    def pop_smallest() -> None:
        last = heap.pop()
        if not heap:
            return
        heap[0] = last
        i = 0
        while True:
            left, right, smallest = 2 * i + 1, 2 * i + 2, i
            if left < len(heap) and less(heap[left], heap[smallest]):
                smallest = left
            if right < len(heap) and less(heap[right], heap[smallest]):
                smallest = right
            if smallest == i:
                return
            heap[i], heap[smallest] = heap[smallest], heap[i]
            i = smallest

    for value in nums:
        push(value)
        if len(heap) > k:
            pop_smallest()
    print(f"@count {comparisons}")
    return heap[0]
