def merge_intervals(intervals: list[list[int]]) -> list[list[int]]:
    # Wrong on purpose: the current end is taken from the last interval, not the largest seen.
    merged: list[list[int]] = []
    for left, right in sorted(intervals):
        if merged and left <= merged[-1][1]:
            merged[-1][1] = right
        else:
            merged.append([left, right])
    return merged
