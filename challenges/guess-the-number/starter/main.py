def main():
    n = int(input())
    # Ask with print("?", ..., flush=True), then read a reply: "<", ">" or "=" with input().
    # Answer with print("!", ..., flush=True).
    print("!", 1, flush=True)


main()
