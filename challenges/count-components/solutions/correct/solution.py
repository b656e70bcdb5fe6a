def count_components(n: int, edges: list[list[int]]) -> int:
    parent = list(range(n))
    size = [1] * n
    hops = 0  # parent pointers followed by find, for the growth grade

    def find(x: int) -> int:
        nonlocal hops
        while parent[x] != x:
            parent[x] = parent[parent[x]]  # path halving
            x = parent[x]
            hops += 1
        return x

    components = n
    for u, v in edges:
        a, b = find(u), find(v)
        if a == b:
            continue
        if size[a] < size[b]:
            a, b = b, a
        parent[b] = a  # the smaller tree goes under the larger one's root
        size[a] += size[b]
        components -= 1
    print(f"@count {hops}")
    return components
