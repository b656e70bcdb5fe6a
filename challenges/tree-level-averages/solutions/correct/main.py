import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = [int(token) for token in data[1:1 + n]]
    parents = [int(token) for token in data[1 + n:1 + 2 * n]]
    children = [[] for _ in range(n)]
    for child, parent in enumerate(parents):
        if parent >= 0:
            children[parent].append(child)
    level = [0] if n > 0 else []
    lines = []
    while level:
        lines.append(f"{sum(values[node] for node in level) / len(level):.9f}")
        level = [child for node in level for child in children[node]]
    sys.stdout.write("".join(line + "\n" for line in lines))


main()
