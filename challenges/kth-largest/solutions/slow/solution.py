def kth_largest(nums: list[int], k: int) -> int:
    # Slow on purpose: k rounds of taking out the largest value left, O(n x k).
    comparisons = 0

    def less(a: int, b: int) -> bool:
        nonlocal comparisons
        comparisons += 1
        return a < b

    left = list(nums)
    largest = left[0]
    for _ in range(k):
        at = 0
        for i in range(1, len(left)):
            if less(left[at], left[i]):
                at = i
        largest = left[at]
        left[at] = left[-1]
        left.pop()
    print(f"@count {comparisons}")
    return largest
