def two_sum(nums: list[int], target: int) -> list[int]:
    first_index: dict[int, int] = {}
    for j, value in enumerate(nums):
        partner = first_index.get(target - value)
        if partner is not None:
            return [partner, j]
        # Keep the first index of each value: the smallest i wins.
        first_index.setdefault(value, j)
    return []
