OPENER = {")": "(", "]": "[", "}": "{"}


def is_balanced(s: str) -> bool:
    stack: list[str] = []
    for bracket in s:
        if bracket in "([{":
            stack.append(bracket)
        elif not stack or stack.pop() != OPENER[bracket]:
            return False
    return not stack
