from dsa import Recorder


def dijkstra(n: int, edges: list[list[int]], source: int) -> list[int]:
    rec = Recorder()
    outgoing = [[] for _ in range(n)]
    for u, v, w in edges:
        outgoing[u].append((v, w))
    for links in outgoing:
        links.sort()  # ascending (node, weight): the order the steps follow
    dist = [None] * n  # None: not reached yet (null in the steps)
    settled = [False] * n
    order = []  # the settled nodes, in the order settled: the steps' "visited"
    dist[source] = 0
    while True:
        node = None
        for v in range(n):
            if not settled[v] and dist[v] is not None and (node is None or dist[v] < dist[node]):
                node = v
        if node is None:
            break
        settled[node] = True
        order.append(node)
        base = dist[node]
        rec.step("settle", current=node, dist=dist, visited=order, caption=(
            f"Start at {node}, at distance 0." if node == source
            else f"{node} is the closest unsettled node, at distance {base}: its distance is final."))
        for to, weight in outgoing[node]:
            if settled[to]:
                continue
            through = base + weight
            old = dist[to]
            relaxed = old is None or through < old
            if relaxed:
                dist[to] = through
            if old is None:
                caption = (f"{to} is reached for the first time through {node}: "
                           f"distance {base} + {weight} = {through}.")
            elif relaxed:
                caption = f"Going to {to} through {node} costs {base} + {weight} = {through}, less than {old}: update it."
            else:
                caption = (f"Going to {to} through {node} costs {base} + {weight} = {through}, not less than {old}: "
                           f"keep {old}.")
            rec.step("relax", current=node, dist=dist, visited=order, edge=[node, to, weight], relaxed=relaxed,
                     caption=caption)
    return [-1 if d is None else d for d in dist]
