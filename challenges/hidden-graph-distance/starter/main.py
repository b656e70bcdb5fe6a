def main():
    n = int(input())
    # Ask with print("?", ..., flush=True), then read a reply: "k u1 ... uk" with input().
    # Answer with print("!", ..., flush=True).
    print("!", -1, flush=True)


main()
