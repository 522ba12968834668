#!/usr/bin/env python3
"""Prints the README's Performance tables from FeedDemo JSON documents.

    Example/readme-tables.py Example/results.json [second.json ...]

Each figure is the median of the first document (the committed `Example/results.json`); its [min–max] spans
the runs of every document given, so that a second full run made on a fresh clone widens the ranges to
what that run saw too. A figure whose min and max equal its median prints alone. `null` (content never
complete within the fill timeout) prints as "never" and sorts above every number.
"""
import json
import math
import sys

NAMES = {
    "sync": "`sync` (draw in `cellForRow`)",
    "mainQueue": "`DispatchQueue.main.async`",
    "dwu": "DWU (faithful)",
    "dwuUnbind": "DWU + `currentIndexPath = nil` in `didEndDisplaying`",
    "runLoopQueue": "Texture `ASRunLoopQueue` (defaults)",
    "runLoopQueueTuned": "Texture, batch 16, no membership scan",
    "idleWork": "IdleWork defaults",
    "idleWork4ms": "IdleWork, `.seconds(0.004)`",
    "idleWorkSlack": "IdleWork, `scrollingSlack`",
    "idleWorkFeed": "**IdleWork `.scrollingFeed`** (recommended)",
    "noGuard": "`noGuard` (canary)",
}

FEED_COLUMNS = [
    ("droppedFrames", "Dropped frames", 0),
    ("blankCellSeconds", "Blank cell·s", 2),
    ("contentRatio", "Content / bound", 2),
    ("staleExecutions", "Stale draws", 0),
    ("visibleTasksEvicted", "Visible draws evicted", 0),
    ("idleWakeupsPerSecond", "Idle wake-ups/s", 1),
]


def value(x):
    return math.inf if x is None else x


def text(x, digits):
    if x is None or x == math.inf:
        return "never"
    return f"{x:,.{digits}f}"


def figure(stats, digits):
    """`median [min–max]` from a list of {median, min, max}; the median is the first document's."""
    median = stats[0]["median"]
    low = min(value(s["min"]) for s in stats)
    high = max(value(s["max"]) for s in stats)
    shown = text(median, digits)
    if text(low, digits) == shown and text(high, digits) == shown:
        return shown
    return f"{shown} [{text(low, digits)}–{text(high, digits)}]"


def find(items, key, name):
    return next(item for item in items if item[key] == name)


def feed_tables(documents):
    first = documents[0]
    for profile in first["profiles"]:
        rates = [rate["refreshHz"] for rate in profile["rates"]]
        rate_label = " / ".join(str(r) for r in rates) + " Hz"
        print(f"#### `{profile['name']}` — {profile['description']}\n")
        print("| Strategy | " + " | ".join(f"{title} {rate_label}" for _, title, _ in FEED_COLUMNS) + " |")
        print("|---" * (len(FEED_COLUMNS) + 1) + "|")
        for entry in profile["rates"][0]["strategies"]:
            name = entry["strategy"]
            cells = []
            for metric, _, digits in FEED_COLUMNS:
                per_rate = []
                for rate in rates:
                    stats = []
                    for document in documents:
                        p = find(document["profiles"], "name", profile["name"])
                        r = find(p["rates"], "refreshHz", rate)
                        stats.append(find(r["strategies"], "strategy", name)["metrics"][metric])
                    per_rate.append(figure(stats, digits))
                cells.append(" / ".join(per_rate))
            print(f"| {NAMES.get(name, name)} | " + " | ".join(cells) + " |")
        print()


def throughput_table(documents):
    first = documents[0]
    rates = sorted({t["refreshHz"] for t in first["throughput"]})
    label = " / ".join(str(r) for r in rates) + " Hz"
    print(
        f"| Strategy | One frame (20,000 tasks): ratio to ideal {label} | its dropped frames (window + after) {label}"
        f" | Batched (200 per frame): ratio {label} | its dropped frames {label} | `addTask` ns per task (× `Array.append`) |"
    )
    print("|---|---|---|---|---|---|")

    def stats(mode, rate, name, metric):
        out = []
        for document in documents:
            workload = next(t for t in document["throughput"] if t["mode"] == mode and t["refreshHz"] == rate)
            out.append(find(workload["strategies"], "strategy", name)["metrics"][metric])
        return out

    names = [s["strategy"] for s in first["throughput"][0]["strategies"]]
    for name in names:
        cells = []
        for mode in ("oneFrame", "batched"):
            cells.append(" / ".join(figure(stats(mode, r, name, "ratioToIdeal"), 2) for r in rates))
            cells.append(" / ".join(figure(stats(mode, r, name, "droppedFrames"), 0) for r in rates))
        costs = [find(d["addTaskCost"]["strategies"], "strategy", name) for d in documents]
        ratio = costs[0]["ratioToArrayAppend"]
        cells.append(f"{figure([c['nsPerTask'] for c in costs], 0)} (×{ratio:.0f})")
        print(f"| {NAMES.get(name, name)} | " + " | ".join(cells) + " |")
    append = [d["addTaskCost"]["arrayAppendNsPerTask"] for d in documents]
    print(f"\n`Array.append` of the same closure: {figure(append, 1)} ns per task.")


def main(paths):
    documents = [json.load(open(path)) for path in paths]
    feed_tables(documents)
    throughput_table(documents)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: readme-tables.py results.json [more.json ...]")
    main(sys.argv[1:])
