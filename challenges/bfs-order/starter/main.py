import json
import sys


def step(**fields):
    """Prints one step line: "@step " and the fields as one JSON object (None prints as null)."""
    print("@step " + json.dumps(fields), flush=True)


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    n, m, source = numbers[0], numbers[1], numbers[2]
    neighbours = [[] for _ in range(n)]
    for k in range(m):
        u, v = numbers[3 + 2 * k], numbers[4 + 2 * k]
        neighbours[u].append(v)
        neighbours[v].append(u)
    for adjacent in neighbours:
        adjacent.sort()
    order = []
    # TODO: breadth-first search from source. Report the start, then each node taken from the queue:
    #   step(current=None, visited=[source], frontier=[source])
    #   step(current=node, visited=visited, frontier=queue)   (the queue, front first)
    print(" ".join(str(node) for node in order))


main()
