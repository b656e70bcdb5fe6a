def kth_largest(nums: list[int], k: int) -> int:
    # Wrong on purpose: repeated values are counted once (a set), so it finds the k-th largest distinct value.
    return sorted(set(nums), reverse=True)[k - 1]
