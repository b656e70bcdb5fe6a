import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object (None prints as null)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n, m, source = numbers[0], numbers[1], numbers[2]
    neighbours = [[] for _ in range(n)]
    for k in range(m):
        u, v = numbers[3 + 2 * k], numbers[4 + 2 * k]
        neighbours[u].append(v)
        neighbours[v].append(u)
    for adjacent in neighbours:
        adjacent.sort()
    # Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
    seen = [False] * n
    visited = []
    queue = [source]
    head = 0
    step(current=None, visited=[source], frontier=queue[head:])
    while head < len(queue):
        node = queue[head]
        head += 1
        if seen[node]:
            continue
        seen[node] = True
        visited.append(node)
        for neighbour in neighbours[node]:
            if not seen[neighbour]:
                queue.append(neighbour)
        step(current=node, visited=visited, frontier=queue[head:])
    print(" ".join(str(node) for node in visited))


main()
