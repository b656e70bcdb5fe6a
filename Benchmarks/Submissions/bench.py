#!/usr/bin/python3
"""The sync /v1/execute lane against async /v1/submissions through SQLite and through PostgreSQL, side by
side in one run (Python hello, 2 slots): accepted submissions/s, completed runs/s, submit p50/p99.

usage: Benchmarks/Submissions/bench.py [--count N] [--rounds N] [--bin DIR] [--stores sqlite,postgresql]
                                      [--versus DIR]
Starts its own daemons (SQLite in a scratch state directory; a throwaway PostgreSQL cluster made and
removed as scripts/scale-out-test does) on loopback, one store after another, so the lanes do not
share the machine. On each daemon the sync and async lanes alternate, --rounds times with --count
runs each (sync first in even rounds, async first in odd ones), and the rates are totals over the
rounds: a change in the machine's load falls on both lanes. Each round's own share (its async lane
against its sync lane) is printed too, with their median and range: the spread says how far one
figure can be trusted. So is the CPU a stored run costs beyond a sync run (daemon, database server
and client, async minus sync), which the machine's load disturbs less than the rates. --versus DIR
runs DIR/dsa-rund beside --bin's, each on a store of its own, their rounds taking turns: a
before/after comparison at the same time on the same machine.
Build with `swift build -c release` and pass --bin .build/release for figures worth quoting.
Run as root. Prints one JSON line per store and the ratios against the targets (async completed >= 90 %
of sync with each store, submit p99 <= 5 ms with SQLite).
"""
import argparse, http.client, importlib.machinery, json, os, shutil, statistics, tempfile, threading, time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
parts = importlib.machinery.SourceFileLoader("scale_out", os.path.join(REPOSITORY, "scripts/scale-out-test")).load_module()
BODY = json.dumps({"language": "python", "source": "print('hello')"})
# Ids per poll: the daemon's default bound on GET /v1/submissions?ids= (submissions.max_batch).
POLL_BATCH = 20


def request(conn, method, path, payload=None):
    headers = {"Content-Type": "application/json"} if payload else {}
    conn.request(method, path, payload, headers)
    answer = conn.getresponse()
    return answer.status, json.loads(answer.read() or b"{}")


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User plus system CPU of one process, all its threads (not its children), seconds."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu_seconds(root):
    """CPU of `root` and its direct children (the PostgreSQL server: postmaster and its backends)."""
    total = cpu_seconds(root)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == root:
                total += cpu_seconds(int(entry))
    return total


class CPUMeter:
    """CPU seconds spent during one lane by the daemon, the database server (if any) and this client."""

    def __init__(self, daemon_pid, database_pid):
        self.daemon_pid, self.database_pid = daemon_pid, database_pid

    def sample(self):
        client = os.times()
        return (cpu_seconds(self.daemon_pid), tree_cpu_seconds(self.database_pid) if self.database_pid else 0.0,
                client.user + client.system)

    def __enter__(self):
        self.start = self.sample()
        return self

    def __exit__(self, *_):
        self.spent = [after - before for after, before in zip(self.sample(), self.start)]


def sync_lane(port, count, threads=4):
    done, lock = [0], threading.Lock()

    def worker(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for _ in range(n):
            status, _ = request(conn, "POST", "/v1/execute", BODY)
            if status == 200:
                with lock:
                    done[0] += 1

    start = time.monotonic()
    workers = [threading.Thread(target=worker, args=(count // threads,)) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return done[0] / (time.monotonic() - start)


def async_lane(port, count):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    poll = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    ids, latencies = [], []
    start = time.monotonic()
    for _ in range(count):
        t = time.monotonic()
        status, answer = request(conn, "POST", "/v1/submissions", BODY)
        latencies.append(time.monotonic() - t)
        assert status == 202, answer
        ids.append(answer["id"])
    accepted = count / (time.monotonic() - start)
    # Oldest first, as the slots take them: a poll asks about the jobs that may be done by now. (It
    # used to ask about any 20 of a set, in hash order, so done jobs piled up unseen and the lane
    # ended up to a third of a second after its last result.) Once one request covers the rest, it
    # waits on the newest with ?wait=, which answers when that job is recorded, then asks about
    # all of them: the lane ends as its last result is recorded, as a sync client's does.
    pending = list(ids)
    last_finished_ms = 0
    while pending:
        if len(pending) <= POLL_BATCH:
            status, answer = request(poll, "GET", f"/v1/submissions/{pending[-1]}?wait=10")
            assert status == 200, answer
        _, answer = request(poll, "GET", "/v1/submissions?ids=" + ",".join(pending[:POLL_BATCH]))
        done = set()
        for item in answer["submissions"]:
            if item.get("status") == "done":
                done.add(item["id"])
                last_finished_ms = max(last_finished_ms, item["finished_ms"])
        pending = [id for id in pending if id not in done]
        if len(pending) > POLL_BATCH:
            time.sleep(0.05)
    completed = count / (time.monotonic() - start)
    # How long after the last result was recorded this client saw the lane end (both wall clocks of
    # this machine): what the poll loop adds to the lane's time.
    tail_ms = time.time() * 1000 - last_finished_ms
    return accepted, completed, latencies, tail_ms


class Lanes:
    """One daemon on one store, its sync and async lanes run round by round, totals kept."""

    def __init__(self, binary, scratch, name, submissions, count, database_pid=None):
        self.name, self.count, self.database_pid = name, count, database_pid
        config = os.path.join(scratch, f"{name}.json")
        with open(config, "w") as handle:
            json.dump({"slots": 2, "submissions": submissions}, handle)
        self.daemon = parts.Daemon(binary, scratch, name, config)
        self.sync_seconds = self.async_seconds = self.accept_seconds = 0.0
        self.latencies, self.tails, self.round_shares = [], [], []
        self.cpu = {"sync": [0.0, 0.0, 0.0], "async": [0.0, 0.0, 0.0]}
        self.load_before = os.getloadavg()[0]
        # Warm the boxes, the interpreter's page cache and the store's prepared statements before
        # anything is timed.
        sync_lane(self.daemon.port, 8, threads=2)
        async_lane(self.daemon.port, 20)

    def round(self, index):
        # Sync first in even rounds, async first in odd ones: a load that grows or fades through
        # the run falls on both lanes alike over each pair of rounds.
        for lane in ("sync", "async") if index % 2 == 0 else ("async", "sync"):
            with CPUMeter(self.daemon.process.pid, self.database_pid) as meter:
                if lane == "sync":
                    sync_rate = sync_lane(self.daemon.port, self.count)
                else:
                    accepted, completed, submits, tail_ms = async_lane(self.daemon.port, self.count)
            self.cpu[lane] = [a + b for a, b in zip(self.cpu[lane], meter.spent)]
        self.sync_seconds += self.count / sync_rate
        self.accept_seconds += self.count / accepted
        self.async_seconds += self.count / completed
        self.round_shares.append(round(completed / sync_rate, 3))
        self.latencies += submits
        self.tails.append(round(tail_ms, 1))

    def stop(self):
        self.daemon.stop()

    def row(self):
        rounds = len(self.round_shares)
        runs = self.count * rounds
        sync, accepted, completed = runs / self.sync_seconds, runs / self.accept_seconds, runs / self.async_seconds
        latencies = sorted(self.latencies)
        p50, p99 = latencies[len(latencies) // 2], latencies[max(0, int(len(latencies) * 0.99) - 1)]
        # The daemon's own time for each submit (its request log's total_ms): what the client saw,
        # minus the client, the kernel's sockets and the wait for a CPU on a busy machine.
        server = []
        with open(self.daemon.log_path) as handle:
            for line in handle:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("route") == "/v1/submissions" and entry.get("method") == "POST":
                    server.append(entry["total_ms"])
        server.sort()
        # CPU milliseconds per run in each lane: the daemon's own threads (not the boxes), the
        # database server's processes, this client.
        cpu = {f"{lane}_cpu_ms_per_run_{part}": round(spent * 1000 / runs, 2)
               for lane, parts_spent in self.cpu.items()
               for part, spent in zip(("daemon", "database", "client"), parts_spent)}
        return {
            "store": self.name, "count": self.count, "rounds": rounds, "sync_completed_per_s": round(sync, 1),
            "async_accepted_per_s": round(accepted, 1), "async_completed_per_s": round(completed, 1),
            "submit_p50_ms": round(p50 * 1000, 2), "submit_p99_ms": round(p99 * 1000, 2),
            "server_submit_p50_ms": server[len(server) // 2],
            "server_submit_p99_ms": server[max(0, int(len(server) * 0.99) - 1)],
            "load_average_before": round(self.load_before, 1), "load_average": round(os.getloadavg()[0], 1),
            "async_vs_sync": round(completed / sync, 2),
            "async_vs_sync_per_round": self.round_shares,
            "async_vs_sync_round_median": round(statistics.median(self.round_shares), 3),
            "async_vs_sync_round_range": [min(self.round_shares), max(self.round_shares)],
            **cpu,
            # What a stored run costs beyond a sync run: the three parts' CPU, async minus sync.
            "extra_cpu_ms_per_stored_run": round(sum(cpu[f"async_cpu_ms_per_run_{part}"] - cpu[f"sync_cpu_ms_per_run_{part}"]
                                                     for part in ("daemon", "database", "client")), 2),
            "async_poll_tail_ms": self.tails,
        }


def measure(lanes, rounds):
    """Runs the rounds of every daemon in `lanes`, interleaved (in turn, the order reversed every
    other round), so that two binaries compared see the same machine."""
    try:
        for index in range(rounds):
            for each in lanes if index % 2 == 0 else lanes[::-1]:
                each.round(index)
    finally:
        for each in lanes:
            each.stop()
    return [each.row() for each in lanes]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--bin", default=os.path.join(REPOSITORY, ".build/release"))
    parser.add_argument("--versus", metavar="DIR",
                        help="also measure DIR/dsa-rund, its rounds interleaved with --bin's (a store of its own "
                             "each): a before/after comparison on the same machine at the same time")
    parser.add_argument("--stores", default="sqlite,postgresql",
                        help="the stores to measure, comma-separated (sqlite, postgresql)")
    arguments = parser.parse_args()
    stores = arguments.stores.split(",")
    if not stores or set(stores) - {"sqlite", "postgresql"}:
        parser.error(f"--stores takes sqlite and postgresql, comma-separated, not {arguments.stores!r}")
    binary = os.path.join(arguments.bin, "dsa-rund")
    scratch = tempfile.mkdtemp(prefix="dsa-run-submissions-bench-")
    os.chmod(scratch, 0o755)
    postgres = None
    try:
        rows = []
        binaries = [("", binary)] + ([("-versus", os.path.join(arguments.versus, "dsa-rund"))] if arguments.versus else [])
        if "sqlite" in stores:
            rows += measure([Lanes(path, scratch, "sqlite" + suffix,
                                   {"store": f"sqlite:{scratch}/state{suffix}/submissions.sqlite3"}, arguments.count)
                             for suffix, path in binaries], arguments.rounds)
        if "postgresql" in stores:
            postgres = parts.Postgres(scratch)
            lanes = []
            for suffix, path in binaries:
                # Each binary's daemon has a database of its own in the one cluster: they share no queue.
                url = postgres.url
                if suffix:
                    postgres.query("CREATE DATABASE versus")
                    url = postgres.url.replace("/postgres?", "/versus?")
                lanes.append(Lanes(path, scratch, "postgresql" + suffix, {"store": url}, arguments.count,
                                   database_pid=postgres.process.pid))
            rows += measure(lanes, arguments.rounds)
    finally:
        if postgres:
            postgres.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    for row in rows:
        print(json.dumps(row))
    for row in rows:
        verdict = "meets" if row["async_vs_sync"] >= 0.9 else "MISSES"
        low, high = row["async_vs_sync_round_range"]
        print(f"{row['store']}: async completed {row['async_vs_sync']:.0%} of sync ({verdict} >= 90 %); rounds: median "
              f"{row['async_vs_sync_round_median']:.0%}, {low:.0%} to {high:.0%}; a stored run's extra CPU "
              f"{row['extra_cpu_ms_per_stored_run']} ms"
              + (f"; submit p99 {row['submit_p99_ms']} ms ({'meets' if row['submit_p99_ms'] <= 5 else 'MISSES'} <= 5 ms), "
                 f"in the daemon {row['server_submit_p99_ms']} ms"
                 if row["store"].startswith("sqlite") else ""))


if __name__ == "__main__":
    main()
