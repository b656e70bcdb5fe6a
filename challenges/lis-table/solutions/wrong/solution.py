from dsa import Recorder


def lis_table(items: list[int]) -> list[int]:
    rec = Recorder()
    best: list[int | None] = [None] * len(items)  # best[i]: the longest increasing run ending at item i
    for i, item in enumerate(items):
        reads = [j for j in range(i) if items[j] <= item]  # wrong: an equal item extends a run
        best[i] = 1 + max((best[j] for j in reads), default=0)
        rec.step("fill", {"table": best, "cell": [i], "reads": [[j] for j in reads]},
                 caption=f"best[{i}] = {best[i]}: {item} extends the best run ending at a smaller item before it"
                 if reads else f"best[{i}] = 1: no smaller item before {item}")
    return best
