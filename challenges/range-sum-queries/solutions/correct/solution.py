def range_sums(nums: list[int], queries: list[list[int]]) -> list[int]:
    n = len(nums)
    values = list(nums)  # the current values, to know each update's change
    tree = [0] * (n + 1)  # Fenwick tree: tree[i] sums values[i - (i & -i) .. i - 1]

    def add(i: int, delta: int) -> None:
        i += 1
        while i <= n:
            tree[i] += delta
            i += i & -i

    def prefix(i: int) -> int:  # values[0] + ... + values[i - 1]
        total = 0
        while i > 0:
            total += tree[i]
            i -= i & -i
        return total

    for i, v in enumerate(values):
        add(i, v)
    answers: list[int] = []
    for kind, a, b in queries:
        if kind == 0:
            add(a, b - values[a])
            values[a] = b
        else:
            answers.append(prefix(b + 1) - prefix(a))
    return answers
