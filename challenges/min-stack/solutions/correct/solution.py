from dsa import Recorder

STEPPED = 50  # operations that record steps


def min_stack(ops: list[str], values: list[int]) -> list[int]:
    rec = Recorder()
    stack: list[int] = []
    ids: list[int] = []
    mins: list[int] = []  # mins[k]: the minimum of stack[0..k]
    next_id = 0
    answers: list[int] = []
    for i, op in enumerate(ops):
        if op == "push":
            value = values[i]
            stack.append(value)
            ids.append(next_id)
            next_id += 1
            mins.append(value if not mins else min(value, mins[-1]))
            if i < STEPPED:
                rec.step("push", {"stack": stack, "ids": ids, "moved": {"id": ids[-1], "value": value},
                                  "min": mins[-1]}, caption=f"Push {value}: the minimum is {mins[-1]}")
        elif op == "pop":
            value, popped_id = stack.pop(), ids.pop()
            mins.pop()
            if i < STEPPED:
                minimum = mins[-1] if mins else None
                caption = f"Pop {value}: the minimum is {minimum}" if mins else f"Pop {value}: the stack is empty"
                rec.step("pop", {"stack": stack, "ids": ids, "moved": {"id": popped_id, "value": value},
                                 "min": minimum}, caption=caption)
        elif op == "top":
            answers.append(stack[-1])
        else:
            answers.append(mins[-1])
    return answers
