def find_occurrences(text: str, pattern: str) -> list[int]:
    # fail[i]: the longest proper prefix of pattern[:i + 1] that is also its suffix.
    fail = [0] * len(pattern)
    k = 0
    for i in range(1, len(pattern)):
        while k and pattern[i] != pattern[k]:
            k = fail[k - 1]
        if pattern[i] == pattern[k]:
            k += 1
        fail[i] = k
    found: list[int] = []
    k = 0
    for i, c in enumerate(text):
        while k and c != pattern[k]:
            k = fail[k - 1]
        if c == pattern[k]:
            k += 1
        if k == len(pattern):
            found.append(i - k + 1)
            k = 0  # Wrong on purpose: starts over after a match, so overlapping occurrences are missed.
    return found
