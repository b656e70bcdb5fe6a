import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    array = numbers[1 : 1 + n]
    # TODO: insertion sort by adjacent swaps. Report each comparison and swap, then the end:
    #   step(action="compare", active=[j - 1, j], array=array)
    #   step(action="swap", active=[j - 1, j], array=array)
    #   step(action="done", active=[], array=array)
    print(" ".join(str(value) for value in array))


main()
