import sys


def compare():
    """One step line per comparison of two items."""
    sys.stdout.write('@step {"action": "compare"}\n')


def merge_sort(items):
    if len(items) < 2:
        return items
    middle = len(items) // 2
    left, right = merge_sort(items[:middle]), merge_sort(items[middle:])
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        compare()
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    return merged + left[i:] + right[j:]


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    print(" ".join(str(value) for value in merge_sort(numbers[1 : 1 + n])))


main()
