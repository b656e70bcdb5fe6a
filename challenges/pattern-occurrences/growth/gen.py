# Growth input at size N (run as `gen N SEED`): prints the args of find_occurrences as one JSON
# object. A text of N `a`s and a pattern of about N/2 - 1 `a`s then a `b`: checking the pattern at
# every start matches all its `a`s before failing on the `b`, about N^2/4 comparisons in all.
import json
import sys

n = int(sys.argv[1])
print(json.dumps({"text": "a" * n, "pattern": "a" * (n // 2 - 1) + "b"}))
