# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import json, random

def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
        prev = cur
    return prev[-1]

def write(name, a, b):
    json.dump({"a": a, "b": b}, open(f"tests/{name}.args.json", "w"))
    json.dump(edit_distance(a, b), open(f"tests/{name}.expected.json", "w"))

random.seed(309)
write("large-random", "".join(random.choice("acgt") for _ in range(1000)), "".join(random.choice("acgt") for _ in range(1000)))
original = [random.choice("abcdefghij") for _ in range(1000)]
edited = original[:]
for _ in range(60):  # a few scattered edits of each kind
    i = random.randrange(len(edited))
    kind = random.randrange(3)
    if kind == 0:
        edited[i] = random.choice("klmno")
    elif kind == 1:
        del edited[i]
    else:
        edited.insert(i, random.choice("klmno"))
write("large-similar", "".join(original), "".join(edited))
