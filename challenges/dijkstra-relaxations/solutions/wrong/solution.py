from dsa import Recorder


def dijkstra(n: int, edges: list[list[int]], source: int) -> list[int]:
    rec = Recorder()
    outgoing = [[] for _ in range(n)]
    for u, v, w in edges:
        outgoing[u].append((v, w))
    for links in outgoing:
        links.sort()
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
        rec.step("settle", current=node, dist=dist)
        for to, weight in outgoing[node]:
            # Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too.
            through = dist[node] + weight
            relaxed = dist[to] is None or through < dist[to]
            if relaxed:
                dist[to] = through
            rec.step("relax", current=node, dist=dist, edge=[node, to, weight], relaxed=relaxed)
    return [-1 if d is None else d for d in dist]
