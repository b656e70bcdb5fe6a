def count_prefixes(words: list[str], prefixes: list[str]) -> list[int]:
    children: list[dict[str, int]] = [{}]  # node 0 is the root; children[node][letter] is a node
    passing = [0]  # passing[node]: how many words' paths pass through the node
    # Wrong on purpose: repeated words are counted once (a set).
    for word in set(words):
        node = 0
        passing[0] += 1
        for letter in word:
            child = children[node].get(letter)
            if child is None:
                child = len(children)
                children[node][letter] = child
                children.append({})
                passing.append(0)
            node = child
            passing[node] += 1
    answers = []
    for prefix in prefixes:
        node: int | None = 0
        for letter in prefix:
            node = children[node].get(letter)
            if node is None:
                break
        answers.append(0 if node is None else passing[node])
    return answers
