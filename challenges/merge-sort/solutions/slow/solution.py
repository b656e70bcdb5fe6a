from dsa import Recorder


def merge_sort(items: list[int]) -> list[int]:
    # Insertion sort: right answers, but about n²/4 comparisons on random input.
    rec = Recorder()
    items = list(items)
    for i in range(1, len(items)):
        j = i
        while j > 0:
            rec.step("compare", values=[items[j - 1], items[j]])
            if items[j - 1] <= items[j]:
                break
            items[j - 1], items[j] = items[j], items[j - 1]
            j -= 1
    return items
