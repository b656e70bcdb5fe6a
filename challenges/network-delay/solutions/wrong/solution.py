import heapq


def shortest_distances(n: int, edges: list[list[int]], source: int) -> list[int]:
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, w in edges:
        adjacency[u].append((v, w))
    dist = [-1] * n
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        for v, w in adjacency[u]:
            if dist[v] == -1:
                # Wrong on purpose: a node's distance is fixed when it is first seen, not when it is popped.
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist
