import json
import sys


def step(**fields):
    """Optional: prints one step for the app's step player, e.g. step(action="look", j=3, need=4)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = [int(token) for token in data[1:1 + n]]
    parents = [int(token) for token in data[1 + n:1 + 2 * n]]
    # TODO: print the average value of each level, from the root's level down, one per line.


main()
