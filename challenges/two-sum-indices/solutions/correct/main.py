import sys


def main():
    data = sys.stdin.read().split()
    n, target = int(data[0]), int(data[1])
    values = [int(token) for token in data[2:2 + n]]
    first_position = {}
    for j, value in enumerate(values):
        partner = first_position.get(target - value)
        if partner is not None:
            print(partner + 1, j + 1)
            return
        # Keep the first position of each value: the smallest i wins.
        first_position.setdefault(value, j)
    print(0, 0)


main()
