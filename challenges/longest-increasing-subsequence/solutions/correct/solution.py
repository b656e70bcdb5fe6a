from bisect import bisect_left


def lis_length(items: list[int]) -> int:
    tails: list[int] = []  # tails[n]: the smallest last item of an increasing run of length n + 1
    for item in items:
        place = bisect_left(tails, item)
        if place == len(tails):
            tails.append(item)
        else:
            tails[place] = item
    return len(tails)
