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
    answer = -1
    # TODO: binary search for target in array. Report each probe, and the end of a failed search:
    #   step(low=low, high=high, mid=mid, found=array[mid] == target)
    #   step(low=low, high=high, mid=None, found=False)
    print(answer)


main()
