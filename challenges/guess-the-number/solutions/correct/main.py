def main():
    n = int(input())
    low, high = 1, n
    while low < high:
        middle = (low + high) // 2
        print("?", middle, flush=True)
        reply = input().strip()
        if reply == "=":
            low = high = middle
        elif reply == "<":
            high = middle - 1
        else:
            low = middle + 1
    print("!", low, flush=True)


main()
