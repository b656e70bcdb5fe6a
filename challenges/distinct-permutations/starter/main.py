import json
import sys


def step(**fields):
    """Optional: prints one step for the app's step player, e.g. step(action="look", j=3, need=4)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = [int(token) for token in data[1:1 + n]]
    # TODO: print every distinct permutation of values once, one per line (any order).


main()
