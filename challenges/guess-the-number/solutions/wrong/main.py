# Asks every number in turn: right in the end, but far more questions than a binary search.
def main():
    n = int(input())
    for guess in range(1, n + 1):
        print("?", guess, flush=True)
        if input().strip() == "=":
            print("!", guess, flush=True)
            return


main()
