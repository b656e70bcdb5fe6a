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
        for k in range(n):
            # Equal values are tried in sorted order only, so each distinct value is tried once here.
            if used[k] or (k > 0 and values[k] == values[k - 1] and not used[k - 1]):
                continue
            used[k] = True
            prefix.append(values[k])
            extend()
            prefix.pop()
            used[k] = False

    extend()
    print("\n".join(lines))


main()
