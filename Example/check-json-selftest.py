#!/usr/bin/env python3
"""Shows that every check of Example/check-json.sh can fail: each case below breaks one figure of a full run's
document (a known-bad baseline passing its metric, the canary silent, a yardstick inconsistent) and expects
check-json to reject the document, naming the figure. The untouched document must pass.

    Example/check-json-selftest.py Example/results.json
"""
import copy
import json
import subprocess
import sys
import tempfile

CHECK = __file__.replace("check-json-selftest.py", "check-json.sh")


def feed(doc, strategy, profile=None, rate=None):
    for p in doc["profiles"]:
        if profile in (None, p["name"]):
            for r in p["rates"]:
                if rate in (None, r["refreshHz"]):
                    for e in r["strategies"]:
                        if e["strategy"] == strategy:
                            yield e["metrics"]


def set_all(metrics, name, value):
    metrics[name] = {"median": value, "min": value, "max": value}


def throughput(doc, strategy, mode):
    for t in doc["throughput"]:
        if t["mode"] == mode:
            for e in t["strategies"]:
                if e["strategy"] == strategy:
                    yield e["metrics"]


def cost_as_cheap_as_append(doc, strategy):
    entry = next(e for e in doc["addTaskCost"]["strategies"] if e["strategy"] == strategy)
    entry["nsPerTask"] = dict(doc["addTaskCost"]["arrayAppendNsPerTask"])


CASES = [
    ("sync droppedFrames", lambda d: [set_all(m, "droppedFrames", 0) for m in feed(d, "sync")]),
    ("sync droppedFramesFlingBack", lambda d: [set_all(m, "droppedFramesFlingBack", 0) for m in feed(d, "sync", "dense")]),
    ("sync throughput oneFrame droppedFramesAfterWindow",
     lambda d: [set_all(m, "droppedFramesAfterWindow", 0) for m in throughput(d, "sync", "oneFrame")]),
    ("dwu idleWakeupsPerSecond", lambda d: [set_all(m, "idleWakeupsPerSecond", 0) for m in feed(d, "dwu", "light", 60)]),
    ("dwu idleCpuMsPerSecond", lambda d: [set_all(m, "idleCpuMsPerSecond", 0) for m in feed(d, "dwu", "heavy", 60)]),
    ("dwu blankCellSeconds", lambda d: [set_all(m, "blankCellSeconds", 0.5) for m in feed(d, "dwu", "light", 120)]),
    ("dwu contentRatio", lambda d: [set_all(m, "contentRatio", 0.9) for m in feed(d, "dwu", "light", 60)]),
    ("dwu visibleTasksEvicted", lambda d: [set_all(m, "visibleTasksEvicted", 0) for m in feed(d, "dwu", "dense", 60)]),
    ("dwu staleExecutions", lambda d: [set_all(m, "staleExecutions", 0) for m in feed(d, "dwu", "reload", 60)]),
    ("runLoopQueue addTaskCost nsPerTask", lambda d: cost_as_cheap_as_append(d, "runLoopQueue")),
    ("canary noGuard shows no stale executions",
     lambda d: [set_all(m, "staleExecutions", 0) for m in feed(d, "noGuard", "reload", 120)]),
    ("consistency:idleWorkFeed contentRatio >= bound",
     lambda d: [set_all(m, "contentRatio", 0.8) for m in feed(d, "idleWorkFeed", "reload", 60)]),
    ("consistency:idleWork ratioToIdeal above 1 only with drops",
     lambda d: [set_all(m, "ratioToIdeal", 1.1) for m in throughput(d, "idleWork", "batched")]),
]


def run(doc):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    done = subprocess.run([CHECK, f.name], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def main(path):
    original = json.load(open(path))
    if original.get("quick"):
        sys.exit("check-json-selftest: needs a full run's document, not --quick")
    code, output = run(original)
    failures = [] if code == 0 else [f"the untouched document fails: {output.strip()}"]
    for name, breaks in CASES:
        doc = copy.deepcopy(original)
        breaks(doc)
        code, output = run(doc)
        if code == 0 or name not in output:
            failures.append(f"{name}: check-json did not reject it (exit {code}): {output.strip()[:300]}")
    if failures:
        sys.exit("check-json-selftest: FAIL\n  " + "\n  ".join(failures))
    print(f"check-json-selftest: ok ({len(CASES)} broken documents rejected, each naming its figure)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check-json-selftest.py RESULTS.json")
    main(sys.argv[1])
