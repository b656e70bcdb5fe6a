from dsa import Recorder

BASE, MODULUS = 256, 1_000_000_007
STEPS_UP_TO = 100  # a longer text records only the done step


def find_all(text: str, pattern: str) -> list[int]:
    rec = Recorder()
    recording = len(text) <= STEPS_UP_TO
    n, m = len(text), len(pattern)
    found: list[int] = []

    def step(action, offset, index, window_hash, caption):
        rec.step(action, text=text, pattern=pattern, offset=offset, index=index, found=list(found),
                 window_hash=window_hash, pattern_hash=pattern_hash, caption=caption)

    pattern_hash = 0
    for c in pattern:
        pattern_hash = (pattern_hash * BASE + ord(c)) % MODULUS
    high = pow(BASE, m - 1, MODULUS)  # the weight of a window's first character
    window_hash = 0
    for offset in range(n - m + 1):
        if offset == 0:
            for c in text[:m]:
                window_hash = (window_hash * BASE + ord(c)) % MODULUS
            if recording:
                step("hash", 0, None, window_hash, f"Hash of the first window: {window_hash}")
        else:
            window_hash = ((window_hash - ord(text[offset - 1]) * high) * BASE + ord(text[offset + m - 1])) % MODULUS
            if recording:
                step("roll", offset, None, window_hash, f"Roll the hash to offset {offset}: {window_hash}")
        if window_hash != pattern_hash:
            continue
        found.append(offset)  # Wrong on purpose: a hash hit is taken as a match, without comparing the characters.
    step("done", None, None, None, f"Found at {found}")
    return found
