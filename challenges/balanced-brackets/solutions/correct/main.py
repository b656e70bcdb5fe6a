import sys

OPENER = {")": "(", "]": "[", "}": "{"}


def balanced(text):
    stack = []
    for bracket in text:
        if bracket in "([{":
            stack.append(bracket)
        elif not stack or stack.pop() != OPENER[bracket]:
            return False
    return not stack


def main():
    data = sys.stdin.read().split()
    count = int(data[0])
    print("\n".join("YES" if balanced(text) else "NO" for text in data[1:1 + count]))


main()
