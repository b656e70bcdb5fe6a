import json
import sys


def step(**fields):
    """Optional: prints one step for the app's step player, e.g. step(action="look", j=3, need=4)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    rules = [(int(data[2 + 2 * k]), int(data[3 + 2 * k])) for k in range(m)]
    # TODO: print an order of tasks 1..n that obeys every rule, or "IMPOSSIBLE".


main()
