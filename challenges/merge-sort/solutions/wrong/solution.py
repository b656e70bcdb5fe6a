from dsa import Recorder


def merge_sort(items: list[int]) -> list[int]:
    rec = Recorder()
    return sort_part(items, rec)


def sort_part(items: list[int], rec: Recorder) -> list[int]:
    if len(items) < 2:
        return items
    middle = len(items) // 2
    left, right = sort_part(items[:middle], rec), sort_part(items[middle:], rec)
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        rec.step("compare", values=[left[i], right[j]])
        if left[i] < right[j]:
            merged.append(left[i])
            i += 1
        elif left[i] > right[j]:
            merged.append(right[j])
            j += 1
        else:
            # Wrong on purpose: two equal items are written once, so a duplicate is lost.
            merged.append(left[i])
            i += 1
            j += 1
    return merged + left[i:] + right[j:]
