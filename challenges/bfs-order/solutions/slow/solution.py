from collections import deque

from dsa import Recorder


def bfs_order(graph: list[list[int]], source: int) -> list[int]:
    neighbour_sets = [set(adjacent) for adjacent in graph]
    rec = Recorder()
    seen = [False] * len(graph)
    seen[source] = True
    queue = deque([source])
    rec.discover(source)
    order = []
    checks = 0
    while queue:
        node = queue.popleft()
        rec.visit(node)
        order.append(node)
        # Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
        for neighbour in range(len(graph)):
            checks += 1
            if neighbour in neighbour_sets[node] and not seen[neighbour]:
                seen[neighbour] = True
                queue.append(neighbour)
                rec.discover(neighbour)
    print("@count", checks)
    return order
