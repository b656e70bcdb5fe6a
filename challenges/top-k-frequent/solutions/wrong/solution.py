from collections import Counter


def top_k_frequent(items: list[int], k: int) -> list[int]:
    # Wrong: most_common keeps tied values in the order they first appear, not the smaller first.
    return [value for value, _ in Counter(items).most_common(k)]
