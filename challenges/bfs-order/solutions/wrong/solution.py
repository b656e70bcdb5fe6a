from collections import deque

from dsa import Recorder


def bfs_order(graph: list[list[int]], source: int) -> list[int]:
    neighbours = [sorted(adjacent) for adjacent in graph]
    rec = Recorder()
    # Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
    seen = [False] * len(graph)
    queue = deque([source])
    rec.discover(source)
    order = []
    checks = 0
    while queue:
        node = queue.popleft()
        if seen[node]:
            continue
        seen[node] = True
        rec.visit(node)
        order.append(node)
        for neighbour in neighbours[node]:
            checks += 1
            if not seen[neighbour]:
                queue.append(neighbour)
                rec.discover(neighbour)
    print("@count", checks)
    return order
