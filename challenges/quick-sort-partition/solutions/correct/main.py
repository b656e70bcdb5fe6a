import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object."""
    print("@step " + json.dumps(fields), flush=True)


def quick_sort(array, lo, hi):
    if lo >= hi:
        return
    pivot = array[hi]
    step(action="pivot", active=[hi], array=array)
    i = lo
    for j in range(lo, hi):
        step(action="compare", active=[j, hi], array=array)
        if array[j] <= pivot:
            if i != j:
                array[i], array[j] = array[j], array[i]
                step(action="swap", active=[i, j], array=array)
            i += 1
    array[i], array[hi] = array[hi], array[i]
    step(action="place", active=[i], array=array)
    quick_sort(array, lo, i - 1)
    quick_sort(array, i + 1, hi)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    array = numbers[1 : 1 + n]
    quick_sort(array, 0, n - 1)
    step(action="done", active=[], array=array)
    print(" ".join(str(value) for value in array))


main()
