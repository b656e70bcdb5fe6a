"""run-grade-daemon-bench: a catalogue challenge's grade per language through dsa-rund, two daemon
binaries side by side (before and after a change), as a learner pressing Submit again and again sees it.

Each binary runs as its own daemon (slots 2, its own cache and work root, the binary's default
config otherwise, or the `prewarm` given with --prewarm). Per round and language each daemon grades
the challenge's correct solution once through `POST /v1/grade`, the daemons' order alternating from
round to round; the first, unmeasured round fills the compile caches, so the figures are what a
repeated Submit costs (compile cache hit: every test's run, growth included). Every grade must be
accepted. Between requests the bench waits until each daemon's pre-warmed pools are full again, as
a learner's next press would find them. It prints the median and p90 per language and daemon, and
after/before. A benchmark, not a test.
"""

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

SOLUTIONS = {
    "python": "main.py", "javascript": "main.js", "java": "Main.java", "cpp": "main.cpp", "kotlin": "main.kt",
    "dart": "main.dart", "go": "main.go", "c": "main.c",
}


def start_daemon(binary, directory, name, prewarm, repository):
    os.makedirs(directory + "/" + name, exist_ok=True)
    config = directory + "/" + name + "/config.json"
    settings = {"listen": ["127.0.0.1:0"]}
    if prewarm is not None:
        settings["prewarm"] = prewarm
    with open(config, "w") as file:
        json.dump(settings, file)
    log = open(directory + "/" + name + "/stderr.log", "w+")
    environment = dict(os.environ, DSA_RUN_DATA=repository)
    process = subprocess.Popen(
        [binary, "--config", config, "--slots", "2", "--work-root", "/run/dsa-run-gradebench-" + name,
         "--cache-dir", directory + "/" + name + "/cache", "--state-dir", directory + "/" + name + "/state"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, env=environment)
    deadline = time.time() + 60
    while time.time() < deadline:
        log.seek(0)
        for line in log.read().splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("event") == "started":
                return process, "http://" + entry["addresses"][0]
        if process.poll() is not None:
            break
        time.sleep(0.05)
    log.seek(0)
    sys.exit("daemon %s did not start: %s" % (name, log.read()))


def pools_full(base):
    """True when every pre-warmed pool the daemon reports holds its configured size."""
    ready, size = {}, {}
    with urllib.request.urlopen(base + "/metrics", timeout=30) as answer:
        for line in answer.read().decode().splitlines():
            name, _, value = line.rpartition(" ")
            if name.startswith("dsa_run_prewarm_ready{"):
                ready[name[len("dsa_run_prewarm_ready"):]] = float(value)
            elif name.startswith("dsa_run_prewarm_size{"):
                size[name[len("dsa_run_prewarm_size"):]] = float(value)
    return all(ready.get(labels, 0) >= wanted for labels, wanted in size.items())


def wait_pools(base, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline and not pools_full(base):
        time.sleep(0.05)


def grade(base, challenge, language, source):
    body = json.dumps({"language": language, "source": source, "challenge": challenge}).encode()
    request = urllib.request.Request(base + "/v1/grade", data=body, headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=300) as answer:
        result = json.loads(answer.read())
    elapsed = time.perf_counter() - started
    if result.get("verdict") != "accepted":
        sys.exit("%s at %s: %s" % (language, base, json.dumps(result)[:600]))
    return elapsed


def summary(values):
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return statistics.median(values) * 1000, p90 * 1000


def main():
    before, after, repository = sys.argv[1], sys.argv[2], sys.argv[3]
    challenge, rounds, languages, prewarm = "insertion-sort", 5, list(SOLUTIONS), None
    arguments = sys.argv[4:]
    while arguments:
        option = arguments.pop(0)
        if option == "--rounds":
            rounds = int(arguments.pop(0))
        elif option == "--languages":
            languages = arguments.pop(0).split(",")
        elif option == "--challenge":
            challenge = arguments.pop(0)
        elif option == "--prewarm":
            prewarm = json.loads(arguments.pop(0))
        else:
            sys.exit("unknown option " + option)
    folder = repository + "/challenges/" + challenge + "/solutions/correct/"
    sources = {}
    for language in languages:
        path = folder + SOLUTIONS[language]
        if not os.path.exists(path):
            sys.exit("%s has no correct solution in %s" % (challenge, SOLUTIONS[language]))
        with open(path) as file:
            sources[language] = file.read()
    directory = tempfile.mkdtemp(prefix="dsa-run-gradebench.")
    daemons = {}
    try:
        for name, binary in (("before", before), ("after", after)):
            daemons[name] = start_daemon(binary, directory, name, prewarm, repository)
        times = {(name, language): [] for name in daemons for language in languages}
        for round_index in range(rounds + 1):
            order = ["before", "after"] if round_index % 2 == 0 else ["after", "before"]
            for language in languages:
                for name in order:
                    base = daemons[name][1]
                    wait_pools(base)
                    elapsed = grade(base, challenge, language, sources[language])
                    if round_index > 0:
                        times[(name, language)].append(elapsed)
        print("%s, correct solution, compile cache warm; %d rounds; medians and p90 in ms" % (challenge, rounds))
        print("%-11s %10s %10s %10s %10s %13s" % ("language", "before", "p90", "after", "p90", "after/before"))
        for language in languages:
            before_median, before_p90 = summary(times[("before", language)])
            after_median, after_p90 = summary(times[("after", language)])
            print("%-11s %10.1f %10.1f %10.1f %10.1f %12.2fx" % (
                language, before_median, before_p90, after_median, after_p90, after_median / before_median))
    finally:
        for process, _ in daemons.values():
            process.send_signal(signal.SIGTERM)
        for process, _ in daemons.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


if __name__ == "__main__":
    main()
