# A depth-first search: it finds a path to node n, but not always a shortest one.
def main():
    n = int(input())
    seen = {1}
    stack = [(1, 0)]
    while stack:
        node, depth = stack.pop()
        if node == n:
            print("!", depth, flush=True)
            return
        print("?", node, flush=True)
        neighbours = list(map(int, input().split()))[1:]
        for neighbour in reversed(neighbours):
            if neighbour not in seen:
                seen.add(neighbour)
                stack.append((neighbour, depth + 1))
    print("!", -1, flush=True)


main()
