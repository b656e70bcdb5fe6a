def distinct_permutations(items: list[int]) -> list[list[int]]:
    values = sorted(items)
    used = [False] * len(values)
    prefix: list[int] = []
    permutations: list[list[int]] = []

    def extend() -> None:
        if len(prefix) == len(values):
            permutations.append(prefix.copy())
            return
        # Wrong on purpose: every position is tried, so equal values give the same permutation several times.
        for k, value in enumerate(values):
            if used[k]:
                continue
            used[k] = True
            prefix.append(value)
            extend()
            prefix.pop()
            used[k] = False

    extend()
    return permutations
