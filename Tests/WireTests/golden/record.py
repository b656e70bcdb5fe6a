#!/usr/bin/python3
"""Records the golden wire fixtures: real requests sent to a running dsa-rund and real `dsa-run --json`
output, stored byte for byte. Run from the repository root after `swift build`:

    /usr/bin/python3 Tests/WireTests/golden/record.py

Every case is a file pair: `<case>.request.json` (the body as sent) and `<case>.response.json` (the
body as answered, with the HTTP status in `<case>.status`); CLI cases are `cli-<case>.args` (one
argument a line) and `cli-<case>.stdout`. WireTests decode the recorded results into the Wire types
and re-encode them, which must give the same bytes.
"""
import json, os, shutil, subprocess, sys, tempfile, time, urllib.request, urllib.error

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "Tests/WireTests/golden")
BIN = os.path.join(ROOT, ".build/debug")
SOLUTIONS = os.path.join(ROOT, "challenges/insertion-sort/solutions")


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def compact(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


STEPS = (
    "import json\n"
    "print('@step ' + json.dumps({'action': 'compare', 'active': [0, 1], 'array': [3, 1, 2]}))\n"
    "print('plain line')\n"
    "print('@step {not json}')\n"
    "print('@step ' + json.dumps({'action': 'swap', 'active': [0, 1], 'array': [1, 3, 2], 'ratio': 0.25,\n"
    "    'big': 12345678901234567, 'note': 'caf\\u00e9 \\\\ \\\"q\\\" \\t', 'ok': True, 'none': None}))\n"
)

EXECUTE = {
    "python-ok": {"language": "python", "source": "import sys\nprint(sys.stdin.read().upper(), sys.argv[1:])\n",
                  "stdin": "hello\n", "args": ["-x", "two words"]},
    "python-runtime-error": {"language": "python", "source": "print('before')\nraise ValueError('bad')\n"},
    "python-exit-code": {"language": "python", "source": "import sys\nsys.stderr.write('tab\\tquote\"\\x01\\n')\nsys.exit(7)\n"},
    "python-cpu-limit": {"language": "python", "source": "while True:\n    pass\n", "limits": {"cpu_ms": 300}},
    "python-wall-limit": {"language": "python", "source": "import time\ntime.sleep(5)\n", "limits": {"wall_ms": 300}},
    "python-memory-limit": {"language": "python", "source": "x = bytearray(200 * 1024 * 1024)\nprint(len(x))\n",
                            "limits": {"memory_mb": 64}},
    "python-output-limit": {"language": "python", "source": "print('y' * 5000)\n", "limits": {"output_kb": 1}},
    "python-signal": {"language": "python", "source": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"},
    "python-steps": {"language": "python", "source": STEPS},
    "python-unicode": {"language": "python", "source": "print('h\\u00e9llo \\u2603 \\U0001F600 / \\\\')\n"},
    "cpp-multi-file": {"language": "cpp", "files": [
        {"name": "main.cpp", "content": "#include <iostream>\n#include \"util.h\"\nint main() { std::cout << twice(21) << std::endl; }\n"},
        {"name": "util.h", "content": "inline int twice(int x) { return 2 * x; }\n"}]},
    "cpp-compile-error": {"language": "cpp", "source": "int main() { return undefined_name; }\n"},
    "java-ok": {"language": "java", "source": "public class Hello { public static void main(String[] a) { System.out.println(\"hi \" + a.length); } }\n",
                "args": ["1"]},
    "javascript-ok": {"language": "javascript", "source": "console.log([1, 2, 3].map(x => x * 2).join(' '))\n"},
}

GRADE = {
    "grade-correct": {"language": "python", "challenge": "insertion-sort", "source": read(SOLUTIONS + "/correct/main.py")},
    "grade-wrong-steps": {"language": "python", "challenge": "insertion-sort", "source": read(SOLUTIONS + "/wrong/main.py")},
    "grade-wrong-all": {"language": "python", "challenge": "insertion-sort", "stop_at_first_failure": False,
                        "source": "print('nothing')\n"},
    "grade-compile-error": {"language": "cpp", "challenge": "insertion-sort", "source": "int main( {\n"},
    "grade-inline": {"language": "python", "source": "a, b = map(int, input().split())\nprint(a + b)\n",
                     "challenge": {"id": "sum", "title": "Sum", "statement": "Add.", "checker": {"name": "tokens"},
                                   "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"},
                                             {"stdin": "2 2\n", "expected_stdout": "5\n", "hidden": True},
                                             {"stdin": "5 5\n", "expected_stdout": "10\n", "points": 2}]}},
}

MISTAKES = {
    "mistake-unknown-field": b'{"language": "python", "source": "x", "limts": {}}',
    "mistake-nested-unknown-field": b'{"language": "python", "source": "x", "limits": {"cpu": 1}}',
    "mistake-duplicate-key": b'{"language": "python", "source": "x", "source": "y"}',
    "mistake-null": b'{"language": "python", "source": "x", "stdin": null}',
    "mistake-wrong-type": b'{"language": 3, "source": "x"}',
    "mistake-fraction": b'{"language": "python", "source": "x", "limits": {"cpu_ms": 1.5}}',
    "mistake-huge-number": b'{"language": "python", "source": "x", "limits": {"cpu_ms": 1e30}}',
    "mistake-negative-limit": b'{"language": "python", "source": "x", "limits": {"memory_mb": -5}}',
    "mistake-over-maximum": b'{"language": "python", "source": "x", "limits": {"cpu_ms": 999999}}',
    "mistake-not-json": b'{"language": ',
    "mistake-not-object": b'[]',
    "mistake-missing-language": b'{"source": "x"}',
    "mistake-both-sources": b'{"language": "python", "source": "x", "files": [{"name": "a.py", "content": ""}]}',
    "mistake-bad-file-name": b'{"language": "python", "files": [{"name": "../a.py", "content": ""}]}',
    "mistake-unknown-language": b'{"language": "cobol", "source": "x"}',
}

GRADE_MISTAKES = {
    "grade-mistake-unknown-challenge": b'{"language": "python", "source": "x", "challenge": "no-such"}',
    "grade-mistake-bad-inline": b'{"language": "python", "source": "x", "challenge": {"id": "Bad Id", "tests": []}}',
    "grade-mistake-unknown-field": b'{"language": "python", "source": "x", "challenge": "insertion-sort", "stop": true}',
}

CLI = {
    "python-ok": ["--lang", "python", "{dir}/hello.py", "--json", "--", "a b"],
    "python-runtime-error": ["--lang", "python", "{dir}/fail.py", "--json"],
    "python-steps": ["--lang", "python", "{dir}/steps.py", "--json"],
    "cpp-compile-error": ["--lang", "cpp", "{dir}/bad.cpp", "--json"],
    "cpp-ok": ["--lang", "cpp", "{dir}/main.cpp", "--json"],
    "grade-correct": ["--lang", "python", SOLUTIONS + "/correct/main.py", "--challenge", "insertion-sort", "--json"],
    "grade-wrong": ["--lang", "python", SOLUTIONS + "/wrong/main.py", "--challenge", "insertion-sort", "--json"],
    "grade-hidden": ["--lang", "python", "{dir}/two_sum.py", "--challenge", "two-sum-indices", "--json"],
}


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as handle:
        handle.write(data)


def post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def main():
    work = tempfile.mkdtemp(prefix="dsa-run-golden.")
    os.chmod(work, 0o755)
    with open(work + "/none.json", "w") as handle:
        handle.write("{}")
    environment = dict(os.environ, DSA_RUN_DATA=ROOT)
    log = open(work + "/log", "w")
    daemon = subprocess.Popen([BIN + "/dsa-rund", "--config", work + "/none.json", "--listen", "127.0.0.1:0",
                               "--work-root", "/run/dsa-run-golden", "--cache-dir", work + "/cache", "--state-dir", work + "/state", "--slots", "1"],
                              env=environment, stdout=subprocess.DEVNULL, stderr=log)
    try:
        port = None
        for _ in range(400):
            for line in read(work + "/log").splitlines():
                entry = json.loads(line)
                if entry.get("event") == "started":
                    port = int(entry["addresses"][0].rsplit(":", 1)[1])
            if port:
                break
            time.sleep(0.05)
        assert port, read(work + "/log")
        for name, body in EXECUTE.items():
            data = compact(body)
            status, answer = post(port, "/v1/execute", data)
            write(name + ".request.json", data), write(name + ".response.json", answer), write(name + ".status", b"%d" % status)
        for name, body in GRADE.items():
            data = compact(body)
            status, answer = post(port, "/v1/grade", data)
            write(name + ".request.json", data), write(name + ".response.json", answer), write(name + ".status", b"%d" % status)
        for name, data in MISTAKES.items():
            status, answer = post(port, "/v1/execute", data)
            write(name + ".request.json", data), write(name + ".response.json", answer), write(name + ".status", b"%d" % status)
        for name, data in GRADE_MISTAKES.items():
            status, answer = post(port, "/v1/grade", data)
            write(name + ".request.json", data), write(name + ".response.json", answer), write(name + ".status", b"%d" % status)
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)
        log.close()

    sources = {"hello.py": "import sys\nprint('hello', sys.argv[1:])\n", "fail.py": "raise SystemExit('no')\n",
               "steps.py": STEPS, "bad.cpp": "int main() { return undefined_name; }\n",
               "main.cpp": "#include <cstdio>\nint main() { std::puts(\"ok\"); }\n",
               "two_sum.py": "def two_sum(nums, target):\n    print('hello', nums)\n    return [0, 0]\n"}
    for name, text in sources.items():
        with open(os.path.join(work, name), "w") as handle:
            handle.write(text)
    for name, arguments in CLI.items():
        arguments = [argument.replace("{dir}", work) for argument in arguments]
        finished = subprocess.run([BIN + "/dsa-run"] + arguments, env=environment, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=300)
        write("cli-" + name + ".args", "\n".join(a.replace(work, "{dir}") for a in arguments).encode() + b"\n")
        write("cli-" + name + ".stdout", finished.stdout)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
