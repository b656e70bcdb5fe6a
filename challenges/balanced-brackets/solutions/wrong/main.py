import sys


def balanced(text):
    # Mistake: one counter per kind checks the numbers of brackets but not how they nest.
    open_count = {"(": 0, "[": 0, "{": 0}
    opener = {")": "(", "]": "[", "}": "{"}
    for bracket in text:
        if bracket in open_count:
            open_count[bracket] += 1
        else:
            open_count[opener[bracket]] -= 1
            if open_count[opener[bracket]] < 0:
                return False
    return all(count == 0 for count in open_count.values())


def main():
    data = sys.stdin.read().split()
    count = int(data[0])
    print("\n".join("YES" if balanced(text) else "NO" for text in data[1:1 + count]))


main()
