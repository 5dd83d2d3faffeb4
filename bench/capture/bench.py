#!/usr/bin/env python3
"""Overhead of the OpenCL capture agent on the launch-heavy example (many tiny kernels).

Runs LaunchHeavy alternately without and with the agent (same JVM flags), several repetitions, and prints the
median wall time of each, the overhead ratio and the added time per traced OpenCL call. A third series runs
the agent with device=off (API calls only, no events added to enqueues), a fourth with ffm=0 (device times read by direct
foreign-function calls into libOpenCL from the first command; by default the agent reads them through JOCL and
switches after 200 000 commands). The first agent run fills the agent's
class cache and is reported apart (cold start). Needs capture/agent built
(mvn -o -pl capture/agent package) and an OpenCL ICD (PoCL).

usage: bench/capture/bench.py [--reps 7] [--launches 50000]
"""
import argparse
import glob
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
java = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
agent = os.path.join(root, "capture/agent/target/hetscope-agent.jar")
examples = glob.glob(os.path.join(root, "capture/agent/target/*-examples.jar"))
jocl = glob.glob(os.path.expanduser("~/.m2/repository/org/jocl/jocl/2.0.5/jocl-2.0.5.jar"))
if not os.path.exists(agent) or not examples or not jocl:
    sys.exit("build capture/agent first (mvn -o -pl capture/agent package)")


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(launches, trace=None, cache=None, extra="", example="LaunchHeavy"):
    cmd = [java, "--enable-native-access=ALL-UNNAMED"]
    if trace:
        cmd.append(f"-javaagent:{agent}=out={trace},cache={cache}{extra}")
    report = tempfile.mktemp(suffix=".report")
    cmd += [f"-Dhetscope.example.report={report}", "-cp", f"{jocl[0]}:{examples[0]}",
            "org.hetscope.capture.examples." + example, str(launches)]
    c0 = cpu()
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    run.cpu = cpu() - c0
    if out.returncode != 0 or "seconds=" not in out.stdout:
        sys.exit(out.stdout + out.stderr)
    calls = 0
    with open(report) as f:
        for line in f:
            k, v = line.strip().split("=")
            if k.startswith("call."):
                calls += int(v)
    os.remove(report)
    loop = float(re.search(r" seconds=([0-9.eE+-]+)", out.stdout).group(1))
    m = re.search(r"launch_loop_s=([0-9.eE+-]+)", out.stdout)
    run.launch_loop = float(m.group(1)) if m else None
    return wall, loop, calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--launches", type=int, default=50000)
    ap.add_argument("--api-calls", type=int, default=1000000)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="hetscope-bench-capture-")
    cache = os.path.join(work, "cache")
    cold = run(a.launches, os.path.join(work, "cold"), cache)
    base, traced, api, jocl = [], [], [], []
    cpu_base, cpu_traced, cpu_api, cpu_jocl = [], [], [], []
    loop_base, loop_traced = [], []
    launch_base, launch_traced, launch_api = [], [], []
    calls = cold[2]
    for i in range(a.reps):
        base.append(run(a.launches))
        cpu_base.append(run.cpu)
        launch_base.append(run.launch_loop)
        t = os.path.join(work, f"trace{i}")
        traced.append(run(a.launches, t, cache))
        cpu_traced.append(run.cpu)
        launch_traced.append(run.launch_loop)
        shutil.rmtree(t)
        api.append(run(a.launches, t, cache, ",device=off"))
        cpu_api.append(run.cpu)
        launch_api.append(run.launch_loop)
        shutil.rmtree(t)
        jocl.append(run(a.launches, t, cache, ",ffm=0"))
        cpu_jocl.append(run.cpu)
        shutil.rmtree(t)
        loop_base.append(run(a.api_calls, example="ApiCallLoop"))
        loop_traced.append(run(a.api_calls, t, cache, example="ApiCallLoop"))
        shutil.rmtree(t)
    mb = statistics.median(w for w, _, _ in base)
    mt = statistics.median(w for w, _, _ in traced)
    lb = statistics.median(l for _, l, _ in base)
    lt = statistics.median(l for _, l, _ in traced)
    print(f"launch-heavy example: {a.launches} kernel launches, {calls} traced OpenCL calls, {a.reps} repetitions")
    print("| measure | without agent (median) | with agent (median) | ratio | added per traced call |")
    print("|---|---|---|---|---|")
    print(f"| process wall time | {mb:.3f} s | {mt:.3f} s | {mt / mb:.3f} | {(mt - mb) / calls * 1e6:.2f} us |")
    print(f"| enqueue loop (in-program) | {lb:.3f} s | {lt:.3f} s | {lt / lb:.3f} | {(lt - lb) / calls * 1e6:.2f} us |")
    ma = statistics.median(w for w, _, _ in api)
    la = statistics.median(l for _, l, _ in api)
    print(f"| process wall time, API calls only (device=off) | {mb:.3f} s | {ma:.3f} s | {ma / mb:.3f} | "
          f"{(ma - mb) / calls * 1e6:.2f} us |")
    print(f"| enqueue loop, API calls only (device=off) | {lb:.3f} s | {la:.3f} s | {la / lb:.3f} | "
          f"{(la - lb) / calls * 1e6:.2f} us |")
    # the launches alone (first launch to the end of clFinish): without the set-up the agent's start-up lands in
    pb, pt, pa = (statistics.median(x) for x in (launch_base, launch_traced, launch_api))
    print(f"| launches alone (first launch to clFinish), full tracing | {pb:.3f} s | {pt:.3f} s | {pt / pb:.3f} | "
          f"{(pt - pb) / a.launches * 1e6:.2f} us |")
    print(f"| launches alone, API calls only (device=off) | {pb:.3f} s | {pa:.3f} s | {pa / pb:.3f} | "
          f"{(pa - pb) / a.launches * 1e6:.2f} us |")
    mj = statistics.median(w for w, _, _ in jocl)
    lj = statistics.median(l for _, l, _ in jocl)
    print(f"| process wall time, device times by direct calls from the start (ffm=0) | {mb:.3f} s | {mj:.3f} s | {mj / mb:.3f} | "
          f"{(mj - mb) / calls * 1e6:.2f} us |")
    print(f"| enqueue loop, device times by direct calls from the start (ffm=0) | {lb:.3f} s | {lj:.3f} s | {lj / lb:.3f} | "
          f"{(lj - lb) / calls * 1e6:.2f} us |")
    cb, ct, ca = statistics.median(cpu_base), statistics.median(cpu_traced), statistics.median(cpu_api)
    cj = statistics.median(cpu_jocl)
    print(f"| process CPU time, device times by direct calls from the start (ffm=0) | {cb:.3f} s | {cj:.3f} s | {cj / cb:.3f} | "
          f"{(cj - cb) / calls * 1e6:.2f} us |")
    print(f"| process CPU time (user+sys, all threads), full tracing | {cb:.3f} s | {ct:.3f} s | {ct / cb:.3f} | "
          f"{(ct - cb) / calls * 1e6:.2f} us |")
    print(f"| process CPU time, API calls only (device=off) | {cb:.3f} s | {ca:.3f} s | {ca / cb:.3f} | "
          f"{(ca - cb) / calls * 1e6:.2f} us |")
    print(f"| first run, empty class cache (wall) | | {cold[0]:.3f} s | {cold[0] / mb:.3f} | |")
    sb = statistics.median(l for _, l, _ in loop_base)
    st = statistics.median(l for _, l, _ in loop_traced)
    print(f"| ApiCallLoop: {a.api_calls} clSetKernelArg (timed loop) | {sb:.3f} s | {st:.3f} s | {st / sb:.3f} | "
          f"{(st - sb) / a.api_calls * 1e6:.3f} us |")
    print("raw wall without:", " ".join(f"{w:.3f}" for w, _, _ in base))
    print("raw wall with:   ", " ".join(f"{w:.3f}" for w, _, _ in traced))
    print("raw wall api-only:", " ".join(f"{w:.3f}" for w, _, _ in api))
    shutil.rmtree(work)


main()
