OPENER = {")": "(", "]": "[", "}": "{"}


def is_balanced(s: str) -> bool:
    # Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
    open_count = {"(": 0, "[": 0, "{": 0}
    for bracket in s:
        if bracket in open_count:
            open_count[bracket] += 1
        else:
            open_count[OPENER[bracket]] -= 1
            if open_count[OPENER[bracket]] < 0:
                return False
    return all(count == 0 for count in open_count.values())
