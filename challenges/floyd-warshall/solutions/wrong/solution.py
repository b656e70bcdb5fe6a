from dsa import Recorder

UNREACHABLE = 10**18


def all_pairs(n: int, edges: list[list[int]]) -> list[list[int]]:
    rec = Recorder()

    def table():  # the steps show a pair with no path known yet as null
        return [[None if d == UNREACHABLE else d for d in row] for row in dist]

    dist = [[0 if i == j else UNREACHABLE for j in range(n)] for i in range(n)]
    for u, v, w in edges:
        dist[u][v] = min(dist[u][v], w)
    rec.step("init", table=table(), cell=None, reads=[],
             caption="0 on the diagonal, each edge's weight, no path known elsewhere")
    # Wrong on purpose: the round k is the innermost loop, so dist[i][k] and dist[k][j] are used before they are final.
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if dist[i][k] == UNREACHABLE or dist[k][j] == UNREACHABLE:
                    continue
                through = dist[i][k] + dist[k][j]
                if through < dist[i][j]:
                    dist[i][j] = through
                    rec.step("relax", table=table(), cell=[i, j], reads=[[i, k], [k, j]],
                             caption=f"{i} to {j} through {k}: {through}")
    rec.step("done", table=table(), cell=None, reads=[], caption="Every pair's shortest distance")
    return dist
