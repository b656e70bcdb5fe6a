# Writes the large test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# 60000 words and 60000 prefixes over a five-letter alphabet: a trie answers in time proportional to
# the letters read, while comparing every word with every prefix makes 3.6 billion comparisons,
# a fifth of them going past the first letter, since the alphabet is small.
import json, random

def count_prefixes(words, prefixes):
    counts = {}
    for word in words:
        for end in range(len(word) + 1):
            counts[word[:end]] = counts.get(word[:end], 0) + 1
    return [counts.get(prefix, 0) for prefix in prefixes]

random.seed(30_2)
alphabet = "abcde"
words = ["".join(random.choice(alphabet) for _ in range(random.randint(1, 12))) for _ in range(60000)]
prefixes = []
for _ in range(60000):
    if random.random() < 0.01:
        prefixes.append("")
    elif random.random() < 0.8:
        word = random.choice(words)
        prefixes.append(word[:random.randint(1, len(word))])
    else:
        prefixes.append("".join(random.choice(alphabet) for _ in range(random.randint(1, 14))))
json.dump({"words": words, "prefixes": prefixes}, open("tests/many.args.json", "w"))
json.dump(count_prefixes(words, prefixes), open("tests/many.expected.json", "w"))
