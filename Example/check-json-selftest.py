#!/usr/bin/env python3
"""Shows that every check of Example/check-json.sh can fail: each case below breaks one figure of a full run's
document (a known-bad baseline passing its metric, the canary silent, a yardstick inconsistent) and expects
check-json to reject the document, naming the figure. The untouched document must pass.

    Example/check-json-selftest.py Example/results.json

CI runs it on two documents: `Example/v3/results.json`, FeedDemo v3's full run, which holds every baseline and
canary (the main-thread baselines' and canaries' checks), and `Example/results.json`, the current full sweep
(its consistency checks, and V4_CASES: IdleWork's result bytes against its limit in `photos`).

The cases of FeedDemo v3's metrics (V3_CASES) need a document of format revision 3 (`formatRevision` 3, the
background strategies and the `flingBack`/`reloadSame` profiles); on an older document they are skipped and
the count of skipped cases is printed. A document holding workItem but not the canary workItemCareless (which a
default run leaves out) is given one, copied from workItem with the flicker it must show (with_careless_canary),
so that the canary's check is shown to reject a broken document too. `--quick-ok` accepts a `--quick` document (to try the cases locally;
the full-run-only consistency cases are then skipped).
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
    ("consistency:idleWorkFeed ratioToIdeal above 1 only with drops",
     lambda d: [set_all(m, "ratioToIdeal", 1.1) for m in throughput(d, "idleWorkFeed", "batched")]),
]


def first_profile(doc, strategy, metric, predicate=lambda v: True):
    """The first (profile, rate) metrics of `strategy` whose `metric` median satisfies `predicate`."""
    for p in doc["profiles"]:
        for r in p["rates"]:
            for e in r["strategies"]:
                if e["strategy"] == strategy and predicate(e["metrics"][metric]["median"]):
                    return e["metrics"]
    return None


def zero_everywhere(doc, strategy, metric, profile=None):
    for m in feed(doc, strategy, profile):
        set_all(m, metric, 0)


def sync_main_as_cheap_as_background(doc):
    for p in doc["profiles"]:
        for r in p["rates"]:
            metrics = {e["strategy"]: e["metrics"] for e in r["strategies"]}
            if "sync" in metrics and "idleWorkPrepare" in metrics:
                set_all(metrics["sync"], "mainThreadCpuMs", metrics["idleWorkPrepare"]["mainThreadCpuMs"]["median"])


def blank_below_bound(doc, strategy):
    for m in feed(doc, strategy, "light"):
        set_all(m, "blankCellSeconds", 0.5 * m["blankCellSecondsLowerBound"]["median"])


def two_recommended_main_thread(doc):
    """A second main-thread strategy flagged recommended (the first of the document's that is not)."""
    for s in doc["strategies"]:
        if s.get("kind", "mainThread") == "mainThread" and not s["recommended"]:
            s["recommended"] = True
            return


V3_CASES = [
    ("canary:noGuardBackground wrongCellApplies",
     lambda d: zero_everywhere(d, "noGuardBackground", "wrongCellApplies")),
    ("canary:noGuardBackground peakThreads", lambda d: zero_everywhere(d, "noGuardBackground", "peakThreads")),
    ("canary:workItemCareless flicker",
     lambda d: zero_everywhere(d, "workItemCareless", "flicker", "reloadSame")),
    ("sync mainThreadCpuMs", sync_main_as_cheap_as_background),
    ("consistency:workItem cpuMs >= mainThreadCpuMs",
     lambda d: [set_all(m, "cpuMs", m["mainThreadCpuMs"]["median"] - 1) for m in feed(d, "workItem", "reload")]),
    ("exactly one recommended strategy per kind", two_recommended_main_thread),
]
def photos_over_limit(doc):
    """IdleWork's peak result bytes in photos twice its limit."""
    limit = next(s["resultByteLimit"] for s in doc["strategies"] if s["name"] == "idleWorkPreparePrefetch")
    for m in feed(doc, "idleWorkPreparePrefetch", "photos"):
        set_all(m, "peakResultBytes", 2 * limit)


def photos_no_room_kept(doc):
    """IdleWork's peak result bytes in photos as at 73f9592, whose cache kept no room for the results on their
    way: the limit and two results per worker (4 MiB on 2 cores) — what the bound allowed then, and no longer."""
    limit = next(s["resultByteLimit"] for s in doc["strategies"] if s["name"] == "idleWorkPrepare")
    for m in feed(doc, "idleWorkPrepare", "photos"):
        set_all(m, "peakResultBytes", limit + 4 * 2**20)


# FeedDemo v4 (format revision 4): IdleWork's result bytes against its limit, in photos.
V4_CASES = [
    ("limit:idleWorkPreparePrefetch peakResultBytes <= resultByteLimit", photos_over_limit),
    ("limit:idleWorkPrepare peakResultBytes <= resultByteLimit", photos_no_room_kept),
]
FULL_RUN_V3_CASES = [
    ("consistency:idleWorkPrepare blankCellSeconds >= bound", lambda d: blank_below_bound(d, "idleWorkPrepare")),
    ("consistency:textureAsync blankCellSeconds >= bound", lambda d: blank_below_bound(d, "textureAsync")),
]


def with_careless_canary(doc):
    """`doc` with the canary workItemCareless, when it holds workItem but not the canary (a default run leaves the
    canary out): a copy of workItem's entries, the canary's flicker in reloadSame above 0 as it must be (one per
    image at least). The untouched augmented document must pass; its case then breaks that flicker."""
    names = [s["name"] for s in doc["strategies"]]
    if "workItemCareless" in names or "workItem" not in names:
        return doc
    doc = copy.deepcopy(doc)
    source = next(s for s in doc["strategies"] if s["name"] == "workItem")
    doc["strategies"].append(dict(source, name="workItemCareless", canary=True, recommended=False))
    for p in doc["profiles"]:
        for r in p["rates"]:
            entry = copy.deepcopy(next(e for e in r["strategies"] if e["strategy"] == "workItem"))
            entry["strategy"] = "workItemCareless"
            if p["name"] == "reloadSame":
                set_all(entry["metrics"], "flicker", max(1, entry["metrics"]["flicker"]["median"]))
            r["strategies"].append(entry)
    return doc


def strategy_of(name):
    """The strategy a case breaks, from its name ("canary noGuard shows ...", "consistency:x ...", "x metric")."""
    if name.startswith("exactly one recommended"):
        return "idleWorkPrepare"
    first = name.split()[1] if name.startswith("canary ") else name.split()[0]
    return first.split(":")[-1]


def run(doc):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    done = subprocess.run([CHECK, f.name], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def main(path, quick_ok=False):
    original = json.load(open(path))
    if original.get("quick") and not quick_ok:
        sys.exit("check-json-selftest: needs a full run's document, not --quick")
    if original.get("formatRevision", 2) >= 3:
        original = with_careless_canary(original)
    cases = list(CASES)
    skipped = 0
    if original.get("formatRevision", 2) >= 3:
        cases += V3_CASES + ([] if original.get("quick") else FULL_RUN_V3_CASES)
    else:
        skipped = len(V3_CASES) + len(FULL_RUN_V3_CASES)
    if original.get("formatRevision", 2) >= 4 and any(p["name"] == "photos" for p in original["profiles"]):
        cases += V4_CASES
    # A case for a strategy the document does not hold (one left out of the default set) cannot fail it.
    present = {s["name"] for s in original["strategies"]}
    absent = [c for c in cases if strategy_of(c[0]) not in present]
    cases = [c for c in cases if strategy_of(c[0]) in present]
    if not original.get("addTaskCost"):
        # Nor one without addTask's cost.
        absent += [c for c in cases if "addTaskCost" in c[0]]
        cases = [c for c in cases if "addTaskCost" not in c[0]]
    if not original.get("throughput"):
        # A sweep without the throughput workloads (FeedDemo v4's --full) cannot break their figures.
        absent += [c for c in cases if "throughput" in c[0] or "ratioToIdeal" in c[0]]
        cases = [c for c in cases if "throughput" not in c[0] and "ratioToIdeal" not in c[0]]
    if original.get("quick"):
        # --quick holds reload and reloadSame only, and no full-run consistency checks.
        cases = [c for c in cases if c[0] in {n for n, _ in V3_CASES}]
    code, output = run(original)
    failures = [] if code == 0 else [f"the untouched document fails: {output.strip()}"]
    for name, breaks in cases:
        doc = copy.deepcopy(original)
        breaks(doc)
        code, output = run(doc)
        if code == 0 or name not in output:
            failures.append(f"{name}: check-json did not reject it (exit {code}): {output.strip()[:300]}")
    if failures:
        sys.exit("check-json-selftest: FAIL\n  " + "\n  ".join(failures))
    note = f"; {skipped} FeedDemo v3 cases skipped: the document predates format revision 3" if skipped else ""
    if absent:
        note += f"; skipped, strategy or section not in the document: {', '.join(c[0] for c in absent)}"
    print(f"check-json-selftest: ok ({len(cases)} broken documents rejected, each naming its figure{note})")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--quick-ok"]
    if len(arguments) != 1:
        sys.exit("usage: check-json-selftest.py [--quick-ok] RESULTS.json")
    main(arguments[0], quick_ok="--quick-ok" in sys.argv[1:])
