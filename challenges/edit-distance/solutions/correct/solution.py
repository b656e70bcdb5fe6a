def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))  # row 0: insert the first j characters of b
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)  # column 0: delete the first i characters of a
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
        prev = cur
    return prev[len(b)]
