import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    array = numbers[1 : 1 + n]
    for done_passes in range(n - 1):
        swapped = False
        # Wrong on purpose: every pass runs to the end, over items already bubbled into place.
        for j in range(n - 1):
            step(action="compare", active=[j, j + 1], array=array)
            if array[j] > array[j + 1]:
                array[j], array[j + 1] = array[j + 1], array[j]
                swapped = True
                step(action="swap", active=[j, j + 1], array=array)
        if not swapped:
            break
    step(action="done", active=[], array=array)
    print(" ".join(str(value) for value in array))


main()
