import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object (None prints as null)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    array = numbers[1 : 1 + n]
    target = numbers[1 + n]
    low, high = 0, n - 1
    # Wrong on purpose: stops when low == high, before probing the last candidate.
    while low < high:
        mid = low + (high - low) // 2
        found = array[mid] == target
        step(low=low, high=high, mid=mid, found=found)
        if found:
            print(mid)
            return
        if array[mid] < target:
            low = mid + 1
        else:
            high = mid - 1
    step(low=low, high=high, mid=None, found=False)
    print(-1)


main()
