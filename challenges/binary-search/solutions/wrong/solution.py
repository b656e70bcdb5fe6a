from dsa import Recorder


def binary_search(items: list[int], target: int) -> int:
    rec = Recorder()
    low, high = 0, len(items) - 1
    # Wrong on purpose: stops when low == high, before probing the last candidate.
    while low < high:
        mid = low + (high - low) // 2
        rec.probe(low, mid, high, items[mid] == target)
        if items[mid] == target:
            return mid
        if items[mid] < target:
            low = mid + 1
        else:
            high = mid - 1
    rec.probe(low, None, high, False)
    return -1
