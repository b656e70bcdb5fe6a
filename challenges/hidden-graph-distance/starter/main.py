def main():
    n = int(input())
    # Ask with print("?", v, flush=True); the reply is input().split(): k, then k neighbours.
    # Answer with print("!", d, flush=True).


main()
