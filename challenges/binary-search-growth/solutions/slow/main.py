import sys


def probe(index):
    """One step line per item looked at."""
    sys.stdout.write('@step {"action": "probe", "index": %d}\n' % index)


def main():
    # A scan from the start: right answers, about n probes.
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    items = numbers[1 : 1 + n]
    target = numbers[1 + n]
    for index in range(n):
        probe(index)
        if items[index] == target:
            print(index)
            return
        if items[index] > target:
            break
    print(-1)


main()
