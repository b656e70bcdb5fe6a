from dsa import Recorder


def binary_search(items: list[int], target: int) -> int:
    rec = Recorder()
    low, high = 0, len(items) - 1
    while low <= high:
        mid = low + (high - low) // 2
        value = items[mid]
        if value == target:
            rec.probe(low, mid, high, True, caption=f"The middle item, at index {mid}, is {value}: found {target}.")
            return mid
        if value < target:
            rec.probe(low, mid, high, False, caption=(
                f"The middle item, at index {mid}, is {value}, smaller than {target}, so search the right half."))
            low = mid + 1
        else:
            rec.probe(low, mid, high, False, caption=(
                f"The middle item, at index {mid}, is {value}, larger than {target}, so search the left half."))
            high = mid - 1
    rec.probe(low, None, high, False, caption=f"low ({low}) has passed high ({high}): {target} is not in the array.")
    return -1
