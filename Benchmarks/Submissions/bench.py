#!/usr/bin/python3
"""Sync /v1/execute against async /v1/submissions on one running dsa-rund (Python hello).

usage: bench.py BASE_URL [COUNT]   e.g. bench.py http://127.0.0.1:8080 200
Start the daemon with the store to measure (SQLite by default, or submissions.store =
postgresql://...) and --slots 2. Prints accepted submissions/s, completed runs/s and submit p50/p99.
"""
import http.client, json, sys, threading, time, urllib.parse

base = urllib.parse.urlparse(sys.argv[1])
count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
body = json.dumps({"language": "python", "source": "print('hello')"})

def connection():
    return http.client.HTTPConnection(base.hostname, base.port, timeout=60)

def request(conn, method, path, payload=None):
    headers = {"Content-Type": "application/json"} if payload else {}
    conn.request(method, path, payload, headers)
    answer = conn.getresponse()
    return answer.status, json.loads(answer.read() or b"{}")

def sync_lane(threads=4):
    done, lock = [0], threading.Lock()
    def worker(n):
        conn = connection()
        for _ in range(n):
            status, _ = request(conn, "POST", "/v1/execute", body)
            if status == 200:
                with lock: done[0] += 1
    start = time.monotonic()
    workers = [threading.Thread(target=worker, args=(count // threads,)) for _ in range(threads)]
    for w in workers: w.start()
    for w in workers: w.join()
    return done[0] / (time.monotonic() - start)

def async_lane():
    conn = connection()
    ids, latencies = [], []
    start = time.monotonic()
    for _ in range(count):
        t = time.monotonic()
        status, answer = request(conn, "POST", "/v1/submissions", body)
        latencies.append(time.monotonic() - t)
        assert status == 202, answer
        ids.append(answer["id"])
    accepted = count / (time.monotonic() - start)
    pending = set(ids)
    while pending:
        batch = list(pending)[:20]
        _, answer = request(conn, "GET", "/v1/submissions?ids=" + ",".join(batch))
        for item in answer["submissions"]:
            if item.get("status") == "done": pending.discard(item["id"])
        if pending: time.sleep(0.05)
    completed = count / (time.monotonic() - start)
    latencies.sort()
    return accepted, completed, latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99) - 1]

sync = sync_lane()
accepted, completed, p50, p99 = async_lane()
print(json.dumps({"count": count, "sync_completed_per_s": round(sync, 1), "async_accepted_per_s": round(accepted, 1),
    "async_completed_per_s": round(completed, 1), "submit_p50_ms": round(p50 * 1000, 2),
    "submit_p99_ms": round(p99 * 1000, 2), "async_vs_sync": round(completed / sync, 2)}))
