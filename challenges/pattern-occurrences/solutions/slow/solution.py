def find_occurrences(text: str, pattern: str) -> list[int]:
    # Slow on purpose: the pattern is checked at every start, O(len(text) x len(pattern)).
    comparisons = 0

    def same(a: str, b: str) -> bool:
        nonlocal comparisons
        comparisons += 1
        return a == b

    found: list[int] = []
    for start in range(len(text) - len(pattern) + 1):
        j = 0
        while j < len(pattern) and same(text[start + j], pattern[j]):
            j += 1
        if j == len(pattern):
            found.append(start)
    print(f"@count {comparisons}")
    return found
