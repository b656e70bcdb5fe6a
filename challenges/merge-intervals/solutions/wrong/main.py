import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    intervals = sorted((int(data[1 + 2 * k]), int(data[2 + 2 * k])) for k in range(n))
    merged = []
    for left, right in intervals:
        if merged and left <= merged[-1][1]:
            # Mistake: takes the new right end even when the current interval already reaches further.
            merged[-1][1] = right
        else:
            merged.append([left, right])
    sys.stdout.write("".join(f"{left} {right}\n" for left, right in merged))


main()
