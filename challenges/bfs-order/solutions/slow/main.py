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
    # The queue keeps every node ever queued: it is the visited order, and queue[head:] the frontier.
    neighbour_sets = [set(adjacent) for adjacent in neighbours]
    seen = [False] * n
    seen[source] = True
    queue = [source]
    head = 0
    step(current=None, visited=queue, frontier=queue[head:])
    # Every neighbour looked at is counted, for the growth grade (@count).
    checks = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        # Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
        for neighbour in range(n):
            checks += 1
            if neighbour in neighbour_sets[node] and not seen[neighbour]:
                seen[neighbour] = True
                queue.append(neighbour)
        step(current=node, visited=queue, frontier=queue[head:])
    print("@count", checks)
    print(" ".join(str(node) for node in queue))


main()
