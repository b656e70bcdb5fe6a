#!/usr/bin/python3
"""Where the PostgreSQL async lane's database CPU goes: per statement and per server process, per job.

usage: Benchmarks/Submissions/profile_postgres.py [--count N] [--rounds N] [--bin DIR] [--perf DIR]
Starts a throwaway cluster as scripts/scale-out-test does, with pg_stat_statements loaded, and one
daemon on it (2 slots, as bench.py); runs bench.py's async lane --rounds times with --count jobs, then
prints per job: each statement's calls, execution time, rows and shared blocks dirtied/written; the
CPU of each server process by its role (backends, walwriter, checkpointer, autovacuum, ...); the
table's updates and how many were HOT; the WAL written. With --perf, perf records the daemon and the
backends meanwhile. Run as root.
"""
import argparse, importlib.machinery, json, os, shutil, signal, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
bench = importlib.machinery.SourceFileLoader("bench", os.path.join(HERE, "bench.py")).load_module()
parts = bench.parts


def server_processes(root, listeners=()):
    """{pid: role} of the postmaster's children, the role from their process title; the backends of
    `listeners` (the daemon's LISTEN connection) apart from the others."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                title = handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        if parent == root:
            role = title.removeprefix("postgres: ")
            # Backends are titled "user database [local] STATE": one role for all of them.
            found[int(entry)] = ("listener backend" if int(entry) in listeners else "backend") if "[local]" in role else role
    return found


def listener_pids(postgres):
    return {int(pid) for pid in postgres.query(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %'").split()}


def role_cpu(root, listeners=()):
    totals = {"postmaster": bench.cpu_seconds(root)}
    for pid, role in server_processes(root, listeners).items():
        totals[role] = totals.get(role, 0.0) + bench.cpu_seconds(pid)
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--bin", default=os.path.join(bench.REPOSITORY, ".build/release"))
    parser.add_argument("--explain", metavar="FILE",
                        help="also log the plans of statements that took 0.5 ms or more (auto_explain) to FILE")
    parser.add_argument("--perf", metavar="DIR",
                        help="perf record -g the daemon and the server's backends during the timed rounds into "
                             "DIR/daemon.data and DIR/backends.data")
    parser.add_argument("--setup", metavar="SQL", action="append", default=[],
                        help="run SQL once the daemon has migrated the schema (it is then restarted), to try a change")
    arguments = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="dsa-run-postgres-profile-")
    os.chmod(scratch, 0o755)
    postgres = daemon = None
    try:
        explain = ("auto_explain.log_min_duration=0.5ms", "auto_explain.log_analyze=on",
                   "auto_explain.log_buffers=on", "auto_explain.log_nested_statements=on") if arguments.explain else ()
        postgres = parts.Postgres(scratch, settings=(
            "shared_preload_libraries=pg_stat_statements" + (",auto_explain" if arguments.explain else ""),
            "pg_stat_statements.track=all", "pg_stat_statements.track_planning=on", "track_io_timing=on") + explain)
        postgres.query("CREATE EXTENSION pg_stat_statements")
        config = os.path.join(scratch, "postgresql.json")
        with open(config, "w") as handle:
            json.dump({"slots": 2, "submissions": {"store": postgres.url}}, handle)
        daemon = parts.Daemon(os.path.join(arguments.bin, "dsa-rund"), scratch, "postgresql", config)
        if arguments.setup:
            daemon.stop()
            for sql in arguments.setup:
                postgres.query(sql)
            daemon = parts.Daemon(os.path.join(arguments.bin, "dsa-rund"), scratch, "postgresql", config)
        bench.sync_lane(daemon.port, 8, threads=2)
        bench.async_lane(daemon.port, 20)
        postgres.query("SELECT pg_stat_statements_reset(), pg_stat_reset(), pg_stat_reset_shared('wal')")
        listeners = listener_pids(postgres)
        before = role_cpu(postgres.process.pid, listeners)
        recorders = []
        if arguments.perf:
            os.makedirs(arguments.perf, exist_ok=True)
            backends = [pid for pid, role in server_processes(postgres.process.pid, listeners).items()
                        if role.endswith("backend")]
            for name, pids in (("daemon", [daemon.process.pid]), ("backends", backends)):
                recorders.append(subprocess.Popen(
                    ["perf", "record", "-q", "-F", "1999", "-g", "-o", os.path.join(arguments.perf, name + ".data"),
                     "-p", ",".join(map(str, pids))], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        daemon_before = bench.cpu_seconds(daemon.process.pid)
        completed = []
        for _ in range(arguments.rounds):
            completed.append(round(bench.async_lane(daemon.port, arguments.count)[1], 1))
        for recorder in recorders:
            recorder.send_signal(signal.SIGINT)
            recorder.wait()
        after = role_cpu(postgres.process.pid, listeners)
        daemon_spent = bench.cpu_seconds(daemon.process.pid) - daemon_before
        jobs = arguments.count * arguments.rounds
        print(f"{jobs} jobs, async completed/s per round {completed}, load {os.getloadavg()[0]:.1f}")
        print(f"daemon CPU {daemon_spent * 1000 / jobs:.2f} ms/job")
        print("server CPU ms/job by process:")
        for role in sorted(set(before) | set(after), key=lambda r: -(after.get(r, 0) - before.get(r, 0))):
            spent = after.get(role, 0) - before.get(role, 0)
            if spent > 0:
                print(f"  {spent * 1000 / jobs:7.3f}  {role}")
        print(f"  {sum(after.values()) * 1000 / jobs - sum(before.values()) * 1000 / jobs:7.3f}  total")
        rows = postgres.query(
            "SELECT plans, calls, round(total_plan_time::numeric, 2), round(total_exec_time::numeric, 2), rows, shared_blks_dirtied, shared_blks_written, "
            "wal_records, wal_fpi, regexp_replace(left(query, 110), '\\s+', ' ', 'g') FROM pg_stat_statements "
            "WHERE query NOT LIKE '%pg_stat%' ORDER BY total_exec_time DESC LIMIT 25")
        print("per job: plans, calls, plan ms, exec ms, rows, blocks dirtied, blocks written, WAL records, "
              "full-page images; statement")
        for line in rows.splitlines():
            plans, calls, plan_ms, exec_ms, rows_, dirtied, written, wal, fpi, text = line.split("|", 9)
            print(f"  {int(plans) / jobs:5.2f} {int(calls) / jobs:5.2f} {float(plan_ms) / jobs:7.3f} "
                  f"{float(exec_ms) / jobs:7.3f} {int(rows_) / jobs:5.2f} "
                  f"{int(dirtied) / jobs:5.2f} {int(written) / jobs:5.2f} {int(wal) / jobs:5.2f} "
                  f"{int(fpi) / jobs:5.2f}  {text}")
        print("table:", postgres.query(
            "SELECT 'inserts ' || n_tup_ins || ', updates ' || n_tup_upd || ', HOT ' || n_tup_hot_upd "
            "|| ', dead ' || n_dead_tup || ', autovacuums ' || autovacuum_count || ', autoanalyzes ' "
            "|| autoanalyze_count FROM pg_stat_user_tables WHERE relname = 'submissions'"))
        print("WAL:", postgres.query(
            "SELECT 'records ' || wal_records || ', full-page images ' || wal_fpi || ', bytes ' || wal_bytes "
            "|| ', writes ' || wal_write || ', syncs ' || wal_sync FROM pg_stat_wal"))
    finally:
        if daemon:
            daemon.stop()
        if postgres:
            postgres.stop()
        if arguments.explain:
            shutil.copy(os.path.join(scratch, "postgres.log"), arguments.explain)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
