def find_occurrences(text: str, pattern: str) -> list[int]:
    comparisons = 0  # character comparisons, for the growth grade

    def same(a: str, b: str) -> bool:
        nonlocal comparisons
        comparisons += 1
        return a == b

    # fail[i]: the longest proper prefix of pattern[:i + 1] that is also its suffix.
    fail = [0] * len(pattern)
    k = 0
    for i in range(1, len(pattern)):
        while k and not same(pattern[i], pattern[k]):
            k = fail[k - 1]
        if same(pattern[i], pattern[k]):
            k += 1
        fail[i] = k
    found: list[int] = []
    k = 0
    for i, c in enumerate(text):
        while k and not same(c, pattern[k]):
            k = fail[k - 1]
        if same(c, pattern[k]):
            k += 1
        if k == len(pattern):
            found.append(i - k + 1)
            k = fail[k - 1]
    print(f"@count {comparisons}")
    return found
