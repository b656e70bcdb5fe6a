def count_components(n: int, edges: list[list[int]]) -> int:
    # Slow on purpose: no union by size and no path compression, so the trees can grow as tall as a
    # chain and each find walks all of it.
    parent = list(range(n))
    hops = 0

    def find(x: int) -> int:
        nonlocal hops
        while parent[x] != x:
            x = parent[x]
            hops += 1
        return x

    components = n
    for u, v in edges:
        a, b = find(u), find(v)
        if a != b:
            parent[a] = b
            components -= 1
    print(f"@count {hops}")
    return components
