import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object (None prints as null)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n, m, source = numbers[0], numbers[1], numbers[2]
    outgoing = [[] for _ in range(n)]
    for k in range(m):
        u, v, w = numbers[3 + 3 * k : 6 + 3 * k]
        outgoing[u].append((v, w))
    for edges in outgoing:
        edges.sort()

    dist = [None] * n  # None: not reached yet
    dist[source] = 0
    # TODO: Dijkstra from source. Report each node settled and each edge relaxed:
    #   step(action="settle", current=node, dist=dist)
    #   step(action="relax", current=node, dist=dist, edge=[node, to, weight], relaxed=relaxed)
    print(" ".join("-1" if d is None else str(d) for d in dist))


main()
