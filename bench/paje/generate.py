#!/usr/bin/env python3
"""Generates a large StarPU-shaped Paje trace by replicating a real StarPU trace shifted in time.

usage: generate.py FIXTURE_PAJE_TRACE OUT_TRACE MIN_MEGABYTES [--tasks-rec]

The body is first sorted by (time, line) so that PajeNG's pj_dump, which refuses time going backwards, reads the
output (StarPU's own output is not sorted). Each copy is shifted by the span of the fixture plus 1 ms. Containers
are created by the first copy and destroyed by the last one. Identifiers that must stay unique across copies are
offset per copy: link keys (com_N, steal_N), the communication id of DriverCopy events (Info) and task JobIds.
Times are kept exact: they are handled as integer picoseconds (StarPU writes ms with 9 decimals).
With --tasks-rec, the fixture's tasks.rec is replicated the same way beside the output (JobIds and DependsOn
offset per copy, times shifted by the same span), so that the import also reads a tasks.rec of the same size.
"""
import os
import sys
from decimal import Decimal

OFFSET = 1_000_000


def ps(text):
    return int(Decimal(text) * 1_000_000_000)


def fmt(p):
    return "%d.%09d" % (p // 1_000_000_000, p % 1_000_000_000)


def main():
    src, out, min_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
    lines = open(src).read().split("\n")
    header, body = [], []
    for i, line in enumerate(lines):
        f = line.split()
        if len(f) > 1 and f[0].isdigit() and f[0] not in ("1", "2", "3", "4", "5", "6"):
            body.append((ps(f[1]), i, f))
        elif line.strip():
            header.append(line)
    body.sort(key=lambda x: (x[0], x[1]))
    span = max(b[0] for b in body) + 1_000_000_000
    create = [b for b in body if b[2][0] == "7"]
    destroy = [b for b in body if b[2][0] == "8"]
    rest = [b for b in body if b[2][0] not in ("7", "8")]
    # Per line: the field list with a placeholder for time and for offset fields.
    templates = []
    for t, _, f in rest:
        kind = f[0]
        shift_fields = []
        if kind in ("18", "19", "23", "24"):
            shift_fields.append(6)          # Key: com_N / steal_N
        elif kind == "22" and f[2] in ("DCo", "DCoE"):
            shift_fields.append(6)          # Info: communication id
        elif kind == "20" or kind == "21":
            shift_fields.append(9)          # JobId
        templates.append((t, f, shift_fields))
    size_goal = min_mb * 1_000_000
    written = 0
    with open(out, "w") as o:
        o.write("\n".join(header) + "\n")
        for t, _, f in create:
            o.write("\t".join([f[0], fmt(t)] + f[2:]) + "\n")
        copy = 0
        while written < size_goal:
            base = copy * span
            chunk = []
            for t, f, shift_fields in templates:
                g = f[:]
                g[1] = fmt(t + base)
                for k in shift_fields:
                    v = g[k]
                    if v.startswith("com_"):
                        g[k] = "com_%d" % (int(v[4:]) + copy * OFFSET)
                    elif v.startswith("steal_"):
                        g[k] = "steal_%d" % (int(v[6:]) + copy * OFFSET)
                    else:
                        g[k] = str(int(v) + copy * OFFSET)
                chunk.append("\t".join(g))
            text = "\n".join(chunk) + "\n"
            o.write(text)
            written += len(text)
            copy += 1
        # Destroyed at the very end: a few StarPU states come after the destruction of their thread.
        end = (copy - 1) * span + max(t for t, _, _ in rest)
        for t, _, f in destroy:
            o.write("\t".join([f[0], fmt(max(t + (copy - 1) * span, end))] + f[2:]) + "\n")
    print("%s: %d copies, %.1f MB" % (out, copy, written / 1e6))
    if "--tasks-rec" in sys.argv[4:]:
        write_tasks_rec(os.path.join(os.path.dirname(src), "tasks.rec"),
                        os.path.join(os.path.dirname(os.path.abspath(out)), "tasks.rec"), copy, span)


def write_tasks_rec(src, out, copies, span):
    records = open(src).read().strip("\n").split("\n\n")
    with open(out, "w") as o:
        for copy in range(copies):
            for rec in records:
                lines = []
                for line in rec.split("\n"):
                    name, _, value = line.partition(": ")
                    if name == "JobId":
                        value = str(int(value) + copy * OFFSET)
                    elif name == "DependsOn" and value.strip():
                        value = " ".join(str(int(v) + copy * OFFSET) for v in value.split())
                    elif name in ("SubmitTime", "StartTime", "EndTime") and value.strip():
                        value = fmt(ps(value) + copy * span)
                    lines.append(name + ": " + value if _ else line)
                o.write("\n".join(lines) + "\n\n")
    print("%s: %d copies of %d tasks" % (out, copies, len(records)))


if __name__ == "__main__":
    main()
