import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object."""
    print("@step " + json.dumps(fields), flush=True)


def quick_sort(array, lo, hi):
    # TODO: if lo < hi, Lomuto-partition array[lo..hi] around array[hi], then sort both parts. Report:
    #   step(action="pivot", active=[hi], array=array)
    #   step(action="compare", active=[j, hi], array=array)
    #   step(action="swap", active=[i, j], array=array)
    #   step(action="place", active=[i], array=array)
    pass


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    array = numbers[1 : 1 + n]
    quick_sort(array, 0, n - 1)
    step(action="done", active=[], array=array)
    print(" ".join(str(value) for value in array))


main()
