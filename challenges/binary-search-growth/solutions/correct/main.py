import sys


def probe(index):
    """One step line per item looked at."""
    sys.stdout.write('@step {"action": "probe", "index": %d}\n' % index)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    items = numbers[1 : 1 + n]
    target = numbers[1 + n]
    low, high = 0, n - 1
    while low <= high:
        middle = (low + high) // 2
        probe(middle)
        if items[middle] == target:
            print(middle)
            return
        if items[middle] < target:
            low = middle + 1
        else:
            high = middle - 1
    print(-1)


main()
