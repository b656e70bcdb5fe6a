"""run-language-bench --daemon: hello per language through dsa-rund, the pre-warmed pool on and off.

Two daemons run side by side (the same binary, slots, work root and data): "pool on" with
`prewarm` {"java": 1, "kotlin": 1} (or --prewarm JSON), "pool off" with {}. Per round and language, each daemon gets the same two
requests, the daemons' order alternating from round to round: a hello whose source no earlier run
used ("new source": compile and run) and the same again ("cached": the compile cache hit, so the run
alone). Between rounds the bench waits until the pool is ready again, as a learner's next press
would find it. It prints the median and p90 of each, the pool's hits, its idle CPU per minute and
its RSS per pre-warmed box. A benchmark, not a test.
"""

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HELLO = {
    "java": 'public class Main {{ public static void main(String[] a) {{ System.out.println("Hello, World!"); }} }} // {tag}\n',
    "python": 'print("Hello, World!")  # {tag}\n',
    "javascript": 'console.log("Hello, World!") // {tag}\n',
    "cpp": '#include <cstdio>\nint main() {{ std::puts("Hello, World!"); }} // {tag}\n',
    "kotlin": 'fun main() {{ println("Hello, World!") }} // {tag}\n',
    "go": 'package main\nimport "fmt"\nfunc main() {{ fmt.Println("Hello, World!") }} // {tag}\n',
    "dart": 'void main() {{ print("Hello, World!"); }} // {tag}\n',
}


def start_daemon(binary, directory, name, prewarm, slots, repository):
    os.makedirs(directory + "/" + name, exist_ok=True)
    config = directory + "/" + name + "/config.json"
    with open(config, "w") as file:
        json.dump({"prewarm": prewarm, "listen": ["127.0.0.1:0"]}, file)
    log = open(directory + "/" + name + "/stderr.log", "w+")
    environment = dict(os.environ, DSA_RUN_DATA=repository)
    process = subprocess.Popen(
        [binary, "--config", config, "--slots", str(slots), "--work-root", "/run/dsa-run-langbench-" + name,
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


def execute(base, language, source):
    body = json.dumps({"language": language, "source": source}).encode()
    request = urllib.request.Request(base + "/v1/execute", data=body, headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as answer:
        result = json.loads(answer.read())
    elapsed = time.perf_counter() - started
    run = result.get("run") or {}
    if run.get("stdout") != "Hello, World!\n":
        sys.exit("%s at %s failed: %s" % (language, base, json.dumps(result)[:400]))
    return elapsed


def metrics(base):
    values = {}
    with urllib.request.urlopen(base + "/metrics", timeout=30) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith("dsa_run_prewarm_"):
                name, _, value = line.rpartition(" ")
                values[name] = float(value)
    return values


def wait_ready(base, timeout=60):
    """True once every pool family holds its configured size and the pool's background work (a
    Dart kernel file compiled after a pre-warmed run) is done: the daemon a learner's next press
    finds after a few seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        values = metrics(base)
        sizes = {name[len("dsa_run_prewarm_size"):]: value for name, value in values.items()
                 if name.startswith("dsa_run_prewarm_size{")}
        if values.get("dsa_run_prewarm_background_pending", 0) > 0:
            time.sleep(0.05)
            continue
        if sizes and all(values.get("dsa_run_prewarm_ready" + labels, 0) >= size for labels, size in sizes.items()):
            return True
        time.sleep(0.05)
    return False


def prewarmed_kind(command):
    """What a process waiting in a pre-warmed box is, from its command line (None: not one). Only
    pre-warmed boxes hold a program while the daemons are idle."""
    if b"DsaRunCompileLauncher" in command:
        return "JVM compile"
    if b"DsaRunPrewarmLauncher" in command:
        return "JVM run"
    if b"dsa_run_launcher.py" in command:
        return "Python"
    if b"/box/main.dill" in command:
        return "Dart"
    return None


def prewarmed_pids():
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as file:
                command = file.read()
            if prewarmed_kind(command):
                found.append(int(pid))
        except OSError:
            pass
    return found


def process_cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kilobytes(pid):
    with open("/proc/%d/status" % pid) as file:
        for line in file:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def summary(values):
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return "%7.1f ms  p90 %7.1f ms" % (statistics.median(values) * 1000, p90 * 1000)


def main():
    binary, repository = sys.argv[1], sys.argv[2]
    rounds, languages, idle_seconds, prewarm = 10, list(HELLO), 30, {"java": 1, "kotlin": 1}
    arguments = sys.argv[3:]
    while arguments:
        option = arguments.pop(0)
        if option == "--runs":
            rounds = int(arguments.pop(0))
        elif option == "--languages":
            languages = arguments.pop(0).split(",")
        elif option == "--idle-seconds":
            idle_seconds = int(arguments.pop(0))
        elif option == "--prewarm":
            prewarm = json.loads(arguments.pop(0))
        else:
            sys.exit("unknown option %s (--runs N, --languages L,..., --idle-seconds S, --prewarm JSON)" % option)
    directory = tempfile.mkdtemp(prefix="dsa-run-langbench-")
    on, on_base = start_daemon(binary, directory, "on", prewarm, 2, repository)
    off, off_base = start_daemon(binary, directory, "off", {}, 2, repository)
    daemons = {"on": on_base, "off": off_base}
    times = {(language, pool, kind): [] for language in languages for pool in daemons for kind in ("new", "cached")}
    try:
        if not wait_ready(on_base):
            sys.exit("the pool never became ready: see %s/on/stderr.log" % directory)
        for round_index in range(rounds + 1):
            order = ["on", "off"] if round_index % 2 == 0 else ["off", "on"]
            for language in languages:
                for pool in order:
                    if pool == "on":
                        wait_ready(on_base)
                    source = HELLO[language].format(tag=random.getrandbits(64))
                    first = execute(daemons[pool], language, source)
                    if pool == "on":
                        wait_ready(on_base)
                    second = execute(daemons[pool], language, source)
                    if round_index > 0:  # the first round warms the page cache and the daemons
                        times[(language, pool, "new")].append(first)
                        times[(language, pool, "cached")].append(second)
        print("hello through dsa-rund, %d rounds, slots 2, pool on = prewarm %s" % (rounds, json.dumps(prewarm)))
        print("%-11s %-7s %-32s %-32s %s" % ("language", "source", "pool off", "pool on", "on/off"))
        for language in languages:
            for kind in ("new", "cached"):
                off_times, on_times = times[(language, "off", kind)], times[(language, "on", kind)]
                print("%-11s %-7s %-32s %-32s %.2f" % (
                    language, kind, summary(off_times), summary(on_times),
                    statistics.median(on_times) / statistics.median(off_times)))
        print("pool metrics:", json.dumps(metrics(on_base)))
        wait_ready(on_base)
        pids = prewarmed_pids()
        before = {pid: process_cpu_seconds(pid) for pid in pids}
        started = time.time()
        time.sleep(idle_seconds)
        elapsed = time.time() - started
        for pid in pids:
            try:
                cpu = process_cpu_seconds(pid) - before[pid]
                with open("/proc/%d/cmdline" % pid, "rb") as file:
                    kind = prewarmed_kind(file.read())
                print("pre-warmed box pid %d (%s): idle CPU %.1f ms per minute, RSS %.1f MiB" % (
                    pid, kind, cpu * 1000 * 60 / elapsed, rss_kilobytes(pid) / 1024))
            except OSError:
                print("pre-warmed box pid %d ended while measured" % pid)
    finally:
        for process in (on, off):
            process.send_signal(signal.SIGTERM)
        for process in (on, off):
            process.wait(timeout=60)


if __name__ == "__main__":
    main()
