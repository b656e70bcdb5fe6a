from collections import deque


def topological_order(n: int, edges: list[list[int]]) -> list[int]:
    successors = [[] for _ in range(n + 1)]
    in_degree = [0] * (n + 1)
    for u, v in edges:
        successors[u].append(v)
        in_degree[v] += 1
    ready = deque(task for task in range(1, n + 1) if in_degree[task] == 0)
    order = []
    while ready:
        task = ready.popleft()
        order.append(task)
        for after in successors[task]:
            in_degree[after] -= 1
            if in_degree[after] == 0:
                ready.append(after)
    # Tasks left out lie on a cycle: no order exists.
    return order if len(order) == n else []
