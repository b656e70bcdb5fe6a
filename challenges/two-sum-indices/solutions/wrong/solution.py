def two_sum(nums: list[int], target: int) -> list[int]:
    first_index: dict[int, int] = {}
    for j, value in enumerate(nums):
        # Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
        first_index.setdefault(value, j)
        partner = first_index.get(target - value)
        if partner is not None:
            return [partner, j]
    return []
