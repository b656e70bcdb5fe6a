UNREACHABLE = 10**18


def shortest_from(n: int, edges: list[list[int]], source: int) -> list[int]:
    dist = [UNREACHABLE] * n
    dist[source] = 0
    for _ in range(n - 1):  # a shortest path has at most n - 1 edges
        changed = False
        for u, v, w in edges:
            if dist[u] != UNREACHABLE and dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                changed = True
        if not changed:
            break
    for u, v, w in edges:
        if dist[u] != UNREACHABLE and dist[u] + w < dist[v]:
            return []  # still relaxing after n - 1 rounds: a negative cycle is reachable
    return dist
