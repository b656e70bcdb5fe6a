def mst_weight(n: int, edges: list[list[int]]) -> int:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]  # path halving
            x = parent[x]
        return x

    total = joined = 0
    for u, v, w in sorted(edges, key=lambda edge: edge[2]):  # Kruskal: cheapest edges first
        a, b = find(u), find(v)
        if a != b:  # joins two components, so it makes no cycle
            parent[a] = b
            total += w
            joined += 1
    return total  # Wrong on purpose: a disconnected graph returns its forest's weight, not -1.
