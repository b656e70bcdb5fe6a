import sys


def compare():
    """One step line per comparison of two items."""
    sys.stdout.write('@step {"action": "compare"}\n')


def main():
    # Insertion sort: right answers, but about n²/4 comparisons on random input.
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    items = numbers[1 : 1 + n]
    for i in range(1, n):
        j = i
        while j > 0:
            compare()
            if items[j - 1] <= items[j]:
                break
            items[j - 1], items[j] = items[j], items[j - 1]
            j -= 1
    print(" ".join(str(value) for value in items))


main()
