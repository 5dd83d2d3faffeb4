#!/usr/bin/env python3
"""Writes N Kineto traces, one per rank, from the shared fixture kineto-cuda-sampled-rank0.json.gz: its events
repeated until a trace reaches SIZE_MB, each copy shifted past the previous one in time (ProfilerStep numbers
advance too), each rank shifted by a few microseconds and, for every eighth rank, stretched by 10 % (a straggler).
Usage: gen.py OUT_DIR N SIZE_MB"""
import gzip, json, os, sys

out, n, size_mb = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
root = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(root, "..", "..", "..", "shared", "fixtures", "chrome", "kineto-cuda-sampled-rank0.json.gz")
doc = json.load(gzip.open(src, "rt"))
events = [e for e in doc["traceEvents"] if isinstance(e, dict)]
timed = [e for e in events if "ts" in e]
t0 = min(float(e["ts"]) for e in timed)
span = max(float(e["ts"]) + float(e.get("dur", 0)) for e in timed) - t0 + 1000
steps = sorted({int(e["name"].split("#")[1]) for e in events if str(e.get("name", "")).startswith("ProfilerStep#")})
os.makedirs(out, exist_ok=True)
one = len(json.dumps(events))
copies = max(1, int(size_mb * 1e6 / one + 0.5))
for rank in range(n):
    stretch = 1.1 if rank % 8 == 7 else 1.0
    shift = rank * 3.0
    path = os.path.join(out, "rank%04d.json" % rank)
    with open(path, "w") as f:
        head = {k: v for k, v in doc.items() if k != "traceEvents"}
        head["distributedInfo"] = dict(doc.get("distributedInfo", {}), rank=rank, world_size=n)
        f.write(json.dumps(head)[:-1] + ', "traceEvents": [\n')
        first = True
        for c in range(copies):
            base = c * span * stretch
            for e in events:
                e2 = dict(e)
                if "ts" in e2:
                    e2["ts"] = round(t0 + (float(e["ts"]) - t0) * stretch + base + shift, 3)
                    if "dur" in e2:
                        e2["dur"] = round(float(e["dur"]) * stretch, 3)
                name = str(e2.get("name", ""))
                if name.startswith("ProfilerStep#") and steps:
                    e2["name"] = "ProfilerStep#%d" % (int(name.split("#")[1]) + c * len(steps))
                f.write(("" if first else ",\n") + json.dumps(e2))
                first = False
        f.write("\n]}\n")
