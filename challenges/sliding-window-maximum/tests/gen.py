# Writes the large test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# 300,000 items in windows of 100,000: taking each window's maximum by scanning it is about
# 2 * 10^10 steps, the deque takes O(n). The second half falls steadily, so a solution that rescans
# only when the maximum leaves the window rescans at every step there.
import json, random
from collections import deque


def window_max(items, k):
    window, answers = deque(), []
    for i, item in enumerate(items):
        if window and window[0] == i - k:
            window.popleft()
        while window and items[window[-1]] <= item:
            window.pop()
        window.append(i)
        if i >= k - 1:
            answers.append(items[window[0]])
    return answers


random.seed(30_22)
n, k = 300_000, 100_000
items = [random.randint(0, 99_999) for _ in range(n // 2)]
items += [n - i + random.randint(0, 3) for i in range(n // 2)]
json.dump({"items": items, "k": k}, open("tests/many.args.json", "w"), separators=(",", ":"))
json.dump(window_max(items, k), open("tests/many.expected.json", "w"), separators=(",", ":"))
