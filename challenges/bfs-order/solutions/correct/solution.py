from collections import deque

from dsa import Recorder


def bfs_order(graph: list[list[int]], source: int) -> list[int]:
    neighbours = [sorted(adjacent) for adjacent in graph]
    rec = Recorder()
    seen = [False] * len(graph)
    seen[source] = True
    queue = deque([source])
    rec.discover(source)
    order = []
    # Every neighbour looked at is counted, for the growth grade (@count).
    checks = 0
    while queue:
        node = queue.popleft()
        rec.visit(node)
        order.append(node)
        for neighbour in neighbours[node]:
            checks += 1
            if not seen[neighbour]:
                seen[neighbour] = True
                queue.append(neighbour)
                rec.discover(neighbour)
    print("@count", checks)
    return order
