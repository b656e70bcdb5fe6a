import json


def step(action, active, array, ids, sorted_items, caption):
    """One step line in the recorder's format (until this moves onto `from dsa import Recorder`)."""
    fields = {"action": action, "active": active, "array": array, "ids": ids, "sorted": sorted_items,
              "caption": caption}
    print("@step " + json.dumps(fields, separators=(",", ":")), flush=True)


def insertion_sort(items: list[int]) -> list[int]:
    array = list(items)
    ids = list(range(len(array)))
    for i in range(1, len(array)):
        j = i
        while j > 0:
            step("compare", [j - 1, j], array, ids, [],
                 f"Compare index {j - 1} ({array[j - 1]}) with index {j} ({array[j]})")
            if array[j - 1] <= array[j]:
                break
            array[j - 1], array[j] = array[j], array[j - 1]
            ids[j - 1], ids[j] = ids[j], ids[j - 1]
            step("swap", [j - 1, j], array, ids, [], f"Swap index {j - 1} and index {j}")
            j -= 1
    step("done", [], array, ids, list(range(len(array))), "Done")
    return array
