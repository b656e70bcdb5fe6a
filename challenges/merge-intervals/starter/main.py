import json
import sys


def step(**fields):
    """Optional: prints one step for the app's step player, e.g. step(action="look", j=3, need=4)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    intervals = [(int(data[1 + 2 * k]), int(data[2 + 2 * k])) for k in range(n)]
    # TODO: merge the overlapping intervals and print them from left to right, one "l r" per line.


main()
