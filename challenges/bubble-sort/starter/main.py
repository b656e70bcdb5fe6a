import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    array = numbers[1 : 1 + n]
    # TODO: bubble sort, stopping after a pass without swaps. Report each comparison and swap, then the end:
    #   step(action="compare", active=[j, j + 1], array=array)
    #   step(action="swap", active=[j, j + 1], array=array)
    #   step(action="done", active=[], array=array)
    print(" ".join(str(value) for value in array))


main()
