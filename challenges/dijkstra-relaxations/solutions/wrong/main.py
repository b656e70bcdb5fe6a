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

    dist = [None] * n
    settled = [False] * n
    dist[source] = 0
    while True:
        node = None
        for v in range(n):
            if not settled[v] and dist[v] is not None and (node is None or dist[v] < dist[node]):
                node = v
        if node is None:
            break
        settled[node] = True
        step(action="settle", current=node, dist=dist)
        for to, weight in outgoing[node]:
            # Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too.
            through = dist[node] + weight
            relaxed = dist[to] is None or through < dist[to]
            if relaxed:
                dist[to] = through
            step(action="relax", current=node, dist=dist, edge=[node, to, weight], relaxed=relaxed)
    print(" ".join("-1" if d is None else str(d) for d in dist))


main()
