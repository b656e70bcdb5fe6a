from collections import deque


def main():
    n = int(input())
    if n == 1:
        print("!", 0, flush=True)
        return
    distance = {1: 0}
    frontier = deque([1])
    while frontier:
        node = frontier.popleft()
        print("?", node, flush=True)
        reply = list(map(int, input().split()))
        for neighbour in reply[1:]:
            if neighbour not in distance:
                distance[neighbour] = distance[node] + 1
                if neighbour == n:
                    print("!", distance[neighbour], flush=True)
                    return
                frontier.append(neighbour)
    print("!", -1, flush=True)


main()
