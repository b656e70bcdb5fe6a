def count_components(n: int, edges: list[list[int]]) -> int:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for u, v in edges:
        # Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it.
        parent[v] = find(u)
    return sum(1 for x in range(n) if parent[x] == x)
