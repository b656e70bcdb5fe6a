# attack: bomb CPython's compiler at run time: compile() of 200,000 nested parentheses, a million-term expression, and a huge constant fold
# expect: status in [ok, runtime_error, memory_limit, time_limit]; elapsed_s < 20
for name, source in (("nested", "(" * 200_000 + ")" * 200_000), ("long", "+".join(["1"] * 1_000_000)),
                     ("fold", "x = 'a' * 10 ** 12"), ("power", "x = 2 ** 10 ** 10")):
    try:
        compile(source, name, "exec")
        print(name, "compiled")
    except (SyntaxError, RecursionError, MemoryError, OverflowError) as error:
        print(name, "refused:", type(error).__name__)
