#!/usr/bin/env python3
"""Compares two builds of IdleWork measured by FeedDemo — or, with --pairs, two strategies of the same runs —
figure by figure, with a rank test.

    python3 Example/compare.py --a before-1.json before-2.json before-3.json \
                               --b after-1.json after-2.json after-3.json [--metrics blankCellSeconds,droppedFrames]
    python3 Example/compare.py --a run-1.json run-2.json run-3.json --pairs runLoopQueueTiles:idleWorkMainPrefetch

With --pairs PEER:MINE,... the documents of --a are compared with themselves: MINE's runs (B) against PEER's (A) in
each profile-rate, so "better" means MINE's median is lower and the difference is significant.

Each document is a FeedDemo `--json-out` of 3 runs per figure: its minimum, median and maximum are the three runs'
values, so three documents give 9 runs a figure. For every strategy and metric, each profile-rate is tested with a
two-sided Mann-Whitney U test (normal approximation with a tie correction) of A's runs against B's, and the
p-values of a strategy's profile-rates are corrected with Holm's method at 5%. A figure is "better" or "worse" for
B when the corrected test rejects and B's median is lower or higher (every metric compared here is
lower-is-better); otherwise "level". Needs Python's standard library only.
"""

import argparse
import gzip
import json
import math
import statistics
import sys

DEFAULT_METRICS = [
    "blankCellSeconds",
    "droppedFrames",
    "p99CommitLatencyMs",
    "mainThreadCpuMs",
    "cpuMs",
    "wrongCellApplies",
    "flicker",
]



def load(path):
    """A FeedDemo document, as written or gzipped (the committed history: `.json.gz`)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        return json.load(file)

def runs_of(documents):
    """{(strategy, profile, hz, metric): [values]} from 3-run documents."""
    values = {}
    for document in documents:
        if document.get("runsPerFigure") != 3:
            sys.exit(f"compare: {document.get('command')}: needs documents of 3 runs per figure")
        for profile in document["profiles"]:
            for rate in profile["rates"]:
                for entry in rate["strategies"]:
                    for metric, figure in entry["metrics"].items():
                        if figure.get("median") is None:
                            continue
                        key = (entry["strategy"], profile["name"], rate["refreshHz"], metric)
                        values.setdefault(key, []).extend([figure["min"], figure["median"], figure["max"]])
    return values


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test, normal approximation with tie correction."""
    n1, n2 = len(a), len(b)
    pooled = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(pooled)
    ties = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        rank = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[k] = rank
        t = j - i + 1
        ties += t**3 - t
        i = j + 1
    r1 = sum(rank for rank, (_, group) in zip(ranks, pooled) if group == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(variance)
    return max(0.0, min(1.0, math.erfc(max(z, 0) / math.sqrt(2))))


def holm(pvalues, alpha=0.05):
    """Which of `pvalues` Holm's method rejects."""
    order = sorted(range(len(pvalues)), key=lambda k: pvalues[k])
    rejected = [False] * len(pvalues)
    for rank, k in enumerate(order):
        if pvalues[k] > alpha / (len(pvalues) - rank):
            break
        rejected[k] = True
    return rejected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", nargs="+", required=True, help="documents of build A (before)")
    parser.add_argument("--b", nargs="+", help="documents of build B (after)")
    parser.add_argument("--pairs", help="PEER:MINE,... — compare strategies within the documents of --a")
    parser.add_argument("--metrics", default=",".join(DEFAULT_METRICS))
    arguments = parser.parse_args()
    a = runs_of([load(path) for path in arguments.a])
    metrics = arguments.metrics.split(",")
    if arguments.pairs:
        compare_pairs(a, [pair.split(":") for pair in arguments.pairs.split(",")], metrics)
        return
    if not arguments.b:
        sys.exit("compare: --b or --pairs is needed")
    b = runs_of([load(path) for path in arguments.b])
    strategies = sorted({key[0] for key in a} & {key[0] for key in b})
    worse_total = 0
    print("| strategy | metric | runs a figure | sum of medians A → B | better | level | worse | worse in |")
    print("|---|---|---|---|---|---|---|---|")
    for strategy in strategies:
        for metric in metrics:
            keys = sorted(key for key in a if key[0] == strategy and key[3] == metric and key in b)
            if not keys:
                continue
            pvalues = [mann_whitney_p(a[key], b[key]) for key in keys]
            rejected = holm(pvalues)
            better, level, worse = [], [], []
            for key, reject in zip(keys, rejected):
                delta = statistics.median(b[key]) - statistics.median(a[key])
                if reject and delta < 0:
                    better.append(key)
                elif reject and delta > 0:
                    worse.append(key)
                else:
                    level.append(key)
            worse_total += len(worse)
            runs = min(min(len(a[key]), len(b[key])) for key in keys)
            where = ", ".join(
                f"{key[1]} {key[2]} Hz ({statistics.median(a[key]):g} -> {statistics.median(b[key]):g})"
                for key in worse)
            sums = (sum(statistics.median(a[key]) for key in keys), sum(statistics.median(b[key]) for key in keys))
            print(
                f"| {strategy} | {metric} | {runs} | {sums[0]:.4g} → {sums[1]:.4g} | {len(better)} | {len(level)} "
                f"| {len(worse)} | {where} |")
    print(f"\nworse figures in all: {worse_total}")


def compare_pairs(runs, pairs, metrics):
    """MINE against PEER in the same runs, per metric: better, level or worse in each profile-rate (Holm over them)."""
    print("| IdleWork | peer | metric | runs a figure | sum of medians peer → IdleWork | better | level | worse | worse in |")
    print("|---|---|---|---|---|---|---|---|---|")
    for peer, mine in pairs:
        for metric in metrics:
            places = sorted(
                (key[1], key[2]) for key in runs
                if key[0] == peer and key[3] == metric and (mine, key[1], key[2], metric) in runs)
            if not places:
                continue
            theirs = [runs[(peer, p, hz, metric)] for p, hz in places]
            ours = [runs[(mine, p, hz, metric)] for p, hz in places]
            rejected = holm([mann_whitney_p(t, o) for t, o in zip(theirs, ours)])
            counts = {"better": 0, "level": 0, "worse": 0}
            worse = []
            for place, t, o, reject in zip(places, theirs, ours, rejected):
                delta = statistics.median(o) - statistics.median(t)
                verdict = "better" if reject and delta < 0 else "worse" if reject and delta > 0 else "level"
                counts[verdict] += 1
                if verdict == "worse":
                    worse.append(f"{place[0]} {place[1]} Hz ({statistics.median(t):g} -> {statistics.median(o):g})")
            runs_a_figure = min(min(len(t), len(o)) for t, o in zip(theirs, ours))
            sums = (sum(statistics.median(t) for t in theirs), sum(statistics.median(o) for o in ours))
            print(
                f"| {mine} | {peer} | {metric} | {runs_a_figure} | {sums[0]:.4g} → {sums[1]:.4g} | {counts['better']} "
                f"| {counts['level']} | {counts['worse']} | {', '.join(worse)} |")


if __name__ == "__main__":
    main()
