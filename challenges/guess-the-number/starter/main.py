def main():
    n = int(input())
    # Ask with print("?", y, flush=True) and read the reply with input().
    # Answer with print("!", x, flush=True).


main()
