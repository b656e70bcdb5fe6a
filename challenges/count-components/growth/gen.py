# Growth input at size N (run as `gen N SEED`): prints the args of count_components as one JSON object.
# Two chains given in the order that makes a union without ranks build a tall tree, whichever root
# it hangs under the other: in the first half every edge joins node 0's set to a new node [0, i], so
# parent[find(u)] = find(v) puts the old root under the new node; in the second half every edge is
# [i, h], which does the same to parent[find(v)] = find(u). Each find from 0 (or h) then walks the
# whole chain built so far. Last, a self-loop [i, i] at every node: a find from each node, so that
# every union-find counts hops (one whose ties keep 0 and h as roots would otherwise make none),
# and the plain one walks its chains once more.
import json
import sys

n = int(sys.argv[1])
half = n // 2
edges = [[0, i] for i in range(1, half)] + [[i, half] for i in range(half + 1, n)]
edges += [[i, i] for i in range(n)]
print(json.dumps({"n": n, "edges": edges}, separators=(",", ":")))
