# Writes the large test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# 200,000 items: the O(n^2) table compares some 2 * 10^10 pairs, the tails with binary search
# take n log n. Values repeat, so a solution that lets equal values extend a run counts too many.
import json, random
from bisect import bisect_left


def lis_length(items):
    tails = []
    for item in items:
        place = bisect_left(tails, item)
        if place == len(tails):
            tails.append(item)
        else:
            tails[place] = item
    return len(tails)


random.seed(30_24)
n = 200_000
# A slowly rising trend with noise, so the answer is long (thousands) and ties are common.
items = [i // 40 + random.randint(-2_000, 2_000) for i in range(n)]
json.dump({"items": items}, open("tests/many.args.json", "w"), separators=(",", ":"))
json.dump(lis_length(items), open("tests/many.expected.json", "w"))
