import json
import sys


def step(**fields):
    """Optional: prints one step for the app's step player, e.g. step(action="look", j=3, need=4)."""
    print("@step " + json.dumps(fields), flush=True)


def balanced(text):
    # TODO: return True when the brackets of text are balanced.
    return False


def main():
    data = sys.stdin.read().split()
    count = int(data[0])
    for text in data[1:1 + count]:
        print("YES" if balanced(text) else "NO")


main()
