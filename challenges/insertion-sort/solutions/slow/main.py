import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    array = numbers[1 : 1 + n]
    for i in range(1, n):
        j = i
        while j > 0:
            step(action="compare", active=[j - 1, j], array=array)
            # Too slow: no stop once the item is in place, so a sorted array costs n²/2 compares.
            if array[j - 1] > array[j]:
                array[j - 1], array[j] = array[j], array[j - 1]
                step(action="swap", active=[j - 1, j], array=array)
            j -= 1
    step(action="done", active=[], array=array)
    print(" ".join(str(value) for value in array))


main()
