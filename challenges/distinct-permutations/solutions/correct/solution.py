def distinct_permutations(items: list[int]) -> list[list[int]]:
    values = sorted(items)
    used = [False] * len(values)
    prefix: list[int] = []
    permutations: list[list[int]] = []

    def extend() -> None:
        if len(prefix) == len(values):
            permutations.append(prefix.copy())
            return
        for k, value in enumerate(values):
            # An equal value whose earlier copy is free would start a permutation already made.
            if used[k] or (k > 0 and value == values[k - 1] and not used[k - 1]):
                continue
            used[k] = True
            prefix.append(value)
            extend()
            prefix.pop()
            used[k] = False

    extend()
    return permutations
