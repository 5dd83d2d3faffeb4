#!/usr/bin/env python3
"""Writes a large Kineto-shaped Chrome trace by replicating a real fixture shifted in time.

Usage: generate_kineto.py FIXTURE.json.gz OUT.json SIZE_MB

Each copy of the fixture's events is shifted past the previous copy, and correlation / External id / flow ids
are offset so that flows stay one-to-one. The result is a plain (uncompressed) JSON object with traceEvents.
"""
import gzip
import json
import sys


def main():
    fixture, out_path, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with gzip.open(fixture, "rt") as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    timed = [e for e in events if "ts" in e and e.get("ph") != "M"]
    t0 = min(float(e["ts"]) for e in timed)
    t1 = max(float(e["ts"]) + float(e.get("dur", 0)) for e in timed)
    period = int(t1 - t0) + 1000
    max_id = 0
    for e in events:
        a = e.get("args") or {}
        for k in ("correlation", "External id"):
            if isinstance(a.get(k), int):
                max_id = max(max_id, a[k])
        if isinstance(e.get("id"), int):
            max_id = max(max_id, e["id"])
    id_step = max_id + 1
    target = size_mb * 1024 * 1024
    header = {k: v for k, v in doc.items() if k != "traceEvents"}
    with open(out_path, "w") as out:
        head = json.dumps(header)
        out.write(head[:-1] + (", " if len(header) else "") + '"traceEvents": [\n')
        written = 0
        first = True
        # metadata once
        for e in events:
            if e.get("ph") == "M":
                line = json.dumps(e)
                out.write(("" if first else ",\n") + line)
                first = False
                written += len(line) + 2
        copy = 0
        while written < target:
            shift = copy * period
            ids = copy * id_step
            for e in timed:
                e2 = dict(e)
                ts = e["ts"]
                e2["ts"] = ts + shift if isinstance(ts, int) else round(ts + shift, 3)
                if isinstance(e.get("id"), int):
                    e2["id"] = e["id"] + ids
                a = e.get("args")
                if a:
                    a2 = dict(a)
                    for k in ("correlation", "External id"):
                        if isinstance(a.get(k), int):
                            a2[k] = a[k] + ids
                    e2["args"] = a2
                line = json.dumps(e2)
                out.write(",\n" + line)
                written += len(line) + 2
            copy += 1
        out.write("\n]}\n")
    print(f"{out_path}: {copy} copies, {written / 1e6:.0f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
