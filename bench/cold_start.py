"""Time from spawning portal-api to its first 200 on /api/health (median of N runs).

Usage: cold_start.py BIN RUNS [--fresh-db] -- extra args
Each run uses a new SQLite file when --fresh-db is given (migrations included in the time),
otherwise one database prepared by a first, untimed run.
"""
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import time


def first_200(binary, db_url):
    start = time.perf_counter()
    proc = subprocess.Popen(
        [binary, "--bind", "127.0.0.1:0", "--database-url", db_url, "--web-dir", "/nonexistent"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                conn.request("GET", "/api/health")
                if conn.getresponse().status == 200:
                    return (time.perf_counter() - start) * 1000
            except OSError:
                pass
            if time.perf_counter() - start > 30:
                raise SystemExit("no 200 within 30 s")
            time.sleep(0.002)
    finally:
        proc.terminate()
        proc.wait()


def main():
    binary, runs = sys.argv[1], int(sys.argv[2])
    fresh = "--fresh-db" in sys.argv
    work = tempfile.mkdtemp(prefix="portal-cold-")
    times = []
    shared = f"sqlite://{work}/shared.db"
    if not fresh:
        first_200(binary, shared)
    for i in range(runs):
        url = f"sqlite://{work}/fresh{i}.db" if fresh else shared
        times.append(first_200(binary, url))
    print(f"{statistics.median(times):.1f} {min(times):.1f} {max(times):.1f}")
    for name in os.listdir(work):
        os.remove(os.path.join(work, name))
    os.rmdir(work)


main()
