# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import json

def find_occurrences(text, pattern):
    fail = [0] * len(pattern)
    k = 0
    for i in range(1, len(pattern)):
        while k and pattern[i] != pattern[k]:
            k = fail[k - 1]
        if pattern[i] == pattern[k]:
            k += 1
        fail[i] = k
    found, k = [], 0
    for i, c in enumerate(text):
        while k and c != pattern[k]:
            k = fail[k - 1]
        if c == pattern[k]:
            k += 1
        if k == len(pattern):
            found.append(i - k + 1)
            k = fail[k - 1]
    return found

def write(name, text, pattern):
    json.dump({"text": text, "pattern": pattern}, open(f"tests/{name}.args.json", "w"))
    json.dump(find_occurrences(text, pattern), open(f"tests/{name}.expected.json", "w"))

# Naive matching compares almost the whole pattern at every one of the 345000 starts: ~10^11 steps.
write("almost-matches", "a" * 690000, "a" * 345000 + "b")
# Every start matches, overlapping: 50001 answers; naive matching again compares 50000 characters at each.
write("all-overlapping", "a" * 100000, "a" * 50000)
