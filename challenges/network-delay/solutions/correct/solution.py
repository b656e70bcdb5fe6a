import heapq


def shortest_distances(n: int, edges: list[list[int]], source: int) -> list[int]:
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, w in edges:
        adjacency[u].append((v, w))
    dist = [-1] * n
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if dist[u] != -1:
            continue  # settled already, by a shorter path
        dist[u] = d  # final: every other way here is at least as long
        for v, w in adjacency[u]:
            if dist[v] == -1:
                heapq.heappush(heap, (d + w, v))
    return dist
