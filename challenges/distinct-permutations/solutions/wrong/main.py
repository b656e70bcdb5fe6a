import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = sorted(int(token) for token in data[1:1 + n])
    used = [False] * n
    prefix = []
    lines = []

    def extend():
        if len(prefix) == n:
            lines.append(" ".join(map(str, prefix)))
            return
        # Mistake: every position is tried, so equal values give the same permutation several times.
        for k in range(n):
            if used[k]:
                continue
            used[k] = True
            prefix.append(values[k])
            extend()
            prefix.pop()
            used[k] = False

    extend()
    print("\n".join(lines))


main()
