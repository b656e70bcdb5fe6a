# Writes the large hidden test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# A text of 1.2 million characters, all "a" but the last, "b", and a pattern of 500000 characters,
# "a" * 499999 + "b": comparing the pattern at every window reads the whole window before the
# mismatch at its last character, 3.5 * 10^11 characters in all (glibc's memcmp, the fastest way to
# do it, took 4.9 s on this project's machine), while the rolling hash reads each character once and
# compares characters only at the one real match (256 has order 500000003 modulo 10^9 + 7, so an
# all-"a" window never shares the pattern's hash). Its text is longer than 100 characters, so its
# only step is "done".
import json

BASE, MODULUS = 256, 1_000_000_007

def hash_of(s):
    h = 0
    for c in s:
        h = (h * BASE + ord(c)) % MODULUS
    return h

n, m = 1_200_000, 500_000
pattern = "a" * (m - 1) + "b"
text = "a" * (n - 1) + "b"
assert hash_of("a" * m) != hash_of(pattern)
json.dump({"text": text, "pattern": pattern}, open("tests/large.args.json", "w"))
json.dump([n - m], open("tests/large.expected.json", "w"))
