#!/usr/bin/env python3
"""Submit/autosave API latency under a bounded concurrent load (issue 5 bench).

Against a running demo portal (127.0.0.1 only): signs in as front desk, takes the Assigned and
in-progress queue rows, then WORKERS threads each own rows and send autosaves (PUT .../answers,
each on the revision it got back) and finally one submit (POST .../submit) per row. Bounded:
SAVES_PER_ROW autosaves per row. Prints p50/p99 per call as Markdown rows.
"""
import http.cookiejar
import json
import sys
import threading
import time
import urllib.request
import uuid

BASE = sys.argv[1]
WORKERS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
SAVES_PER_ROW = int(sys.argv[3]) if len(sys.argv) > 3 else 40
assert BASE.startswith("http://127.0.0.1:"), "load only against this machine"

VALID = {
    "PES-010": {"pregnant": "no", "breastfeeding": "no", "deodorant": "no", "new_problem": "no", "implants": "no"},
    "MRI-003": {"pacemaker": "no", "claustrophobia": "no", "kidney": "no", "contrast_reaction": "no", "pregnant": "no"},
    "BIH-001": {"height_in": "64", "weight_lb": "140", "sex_at_birth": "female", "has_symptoms": "no", "prior_mammogram": "no",
                "had_biopsy": "no", "had_breast_cancer": "no", "other_cancer": "no", "chest_radiation": "no", "genetic_test": "no",
                "family_cancer": "no", "menopause": "no", "pregnant_now": "no", "breastfeeding": "no", "births": "0", "has_implants": "no"},
}


def client():
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(BASE + "/api/health").read()
    csrf = next(c.value for c in jar if c.name == "portal_csrf")

    def call(method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(BASE + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
        t = time.perf_counter()
        with opener.open(req) as r:
            out = json.loads(r.read() or b"null")
        return out, (time.perf_counter() - t) * 1000

    call("POST", "/api/staffUser/login", {"usernameOrEmail": "frontdesk", "password": "Portal!2026"})
    return call


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def main():
    call = client()
    rows = []
    for status in ("Assigned", "IntermediateSave"):
        page, _ = call("POST", "/api/surveyQueue/datatable",
                       {"PageIndex": 0, "PageSize": 100, "SortDirection": "asc", "Search": "", "Status": status})
        rows += [r["Id"] for r in page["Data"]]
    saves, submits, errors = [], [], []
    lock = threading.Lock()

    def work(my_rows):
        c = client()
        for qid in my_rows:
            run, _ = c("GET", f"/api/surveyRun/{qid}")
            if run["Decision"]["Kind"] == "Refused":
                continue
            answers = VALID[run["Definition"]["Id"]]
            rev = run["Revision"]
            for i in range(SAVES_PER_ROW):
                partial = dict(list(answers.items())[: 1 + i % len(answers)])
                try:
                    r, ms = c("PUT", f"/api/surveyRun/{qid}/answers", {"ChangeId": uuid.uuid4().hex, "BaseRevision": rev, "Answers": partial})
                    rev = r["Revision"]
                    with lock:
                        saves.append(ms)
                except Exception as e:  # noqa: BLE001 - reported, never hidden
                    with lock:
                        errors.append(str(e))
            try:
                _, ms = c("POST", f"/api/surveyRun/{qid}/submit", {"ChangeId": uuid.uuid4().hex, "BaseRevision": rev, "Answers": answers})
                with lock:
                    submits.append(ms)
            except Exception as e:  # noqa: BLE001
                with lock:
                    errors.append(str(e))

    threads = [threading.Thread(target=work, args=(rows[i::WORKERS],)) for i in range(WORKERS)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    print(f"| autosave PUT /api/surveyRun/{{id}}/answers | {len(saves)} | {WORKERS} | {pct(saves, 50):.1f} | {pct(saves, 99):.1f} |")
    print(f"| submit POST /api/surveyRun/{{id}}/submit (full re-validation) | {len(submits)} | {WORKERS} | {pct(submits, 50):.1f} | {pct(submits, 99):.1f} |")
    print(f"\n{len(errors)} errors; {wall:.1f} s wall time.")
    if errors:
        print("First error: " + errors[0])


main()
