#!/usr/bin/env python3
"""Prints the README's Performance tables from FeedDemo JSON documents, and checks a new run against them.

    Example/readme-tables.py Example/results.json Example/runs/*.json
    Example/readme-tables.py --verify-readme README.md Example/results.json Example/runs/*.json
    Example/readme-tables.py --check NEW.json Example/results.json Example/runs/*.json
    Example/readme-tables.py --svg Example/feeddemo-headline.svg Example/results.json Example/runs/*.json

The table (FeedDemo v4 documents, with `contests`) sums each strategy's medians of the first document (the
committed `Example/results.json`) over its profiles; its [min–max] are the sums of the smallest and of the largest
run figures of every document given that measured them (`Example/runs/`). A figure whose min and max equal its
median prints alone. `null` (content never complete within the fill timeout) prints as "never" and sorts above
every number.

`--verify-readme` fails (exit 1) unless the README holds the printed tables verbatim: CI runs it, so the
README's figures are always the committed documents' figures.

`--check NEW.json` reads a new run (the README's command with `--json-out NEW.json`) and lists each of its
medians — per profile, rate, strategy and metric, where it measured them — that falls outside the range, compared as printed (rounded to the digits shown); it
ends with "N of M figures outside". It exits 0 whatever N is: this machine's steal makes a small N normal,
and the README says how many a fresh run showed.
"""
import contextlib
import io
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
    "idleWorkSlack": "IdleWork, `scrollingSlack`",  # no longer in FeedDemo (the API is gone); kept for older documents
    "idleWorkFeed": "**IdleWork `.scrollingFeed`** (recommended)",
    "noGuard": "`noGuard` (canary)",
    "yyAsyncLayer": "YYAsyncLayer + YYTransaction",
    "textureAsync": "Texture async display",
    "asyncDraw": "AsyncDraw",
    "msCachedAsync": "MSCachedAsyncViewDrawing",
    "workItem": "`DispatchWorkItem` per draw",
    "noGuardBackground": "`noGuardBackground` (canary)",
    "idleWorkPrepare": "**IdleWork prepared tasks**",
    "idleWorkPrepare1": "IdleWork prepared, 1 worker",
    "idleWorkPrepare2": "IdleWork prepared, 2 workers",
    "idleWorkPrepare4": "IdleWork prepared, 4 workers",
    "idleWorkPreparePrefetch": "**IdleWork prepared tasks, prefetching** (recommended, background)",
    "workItemPrefetch": "`DispatchWorkItem` per draw, prefetching",
    "textureAsyncPrefetch": "Texture async display, display range",
    "msCachedAsyncPrefetch": "MSCachedAsyncViewDrawing, cache warmed in `prefetchRowsAt`",
    "idleWorkFeedWhole": "**IdleWork `.scrollingFeed`**, whole draws",
    "runLoopQueueTiles": "Texture `ASRunLoopQueue`, tiles",
    "dwuTiles": "DWU, tiles",
    "mainQueueTiles": "`DispatchQueue.main.async`, tiles",
    "workItemCareful": "`DispatchWorkItem`, careful (QoS, cancels running draws)",
    "workItemCarefulPrefetch": "`DispatchWorkItem`, careful, prefetching",
    "nukePipeline": "Nuke-like pipeline",
    "nukePrefetch": "Nuke-like pipeline, `ImagePrefetcher`",
}

# FeedDemo v3 (format revision 3): a second table per profile with what drawing costs and the background
# path's faults; printed only for documents that hold these metrics, so the tables of older documents (and
# the README built from them) are unchanged.
COST_COLUMNS = [
    ("blankCellSecondsLowerBound", "Blank bound", 2),
    ("cpuMs", "CPU ms", 0),
    ("mainThreadCpuMs", "Main-thread CPU ms", 0),
    ("rendersWasted", "Renders wasted", 0),
    ("wrongCellApplies", "Wrong-cell applies", 0),
    ("flicker", "Flicker", 0),
    ("peakThreads", "Threads", 0),
    ("peakResultBytes", "Result MB", 1),
]

# The chart's legend: short names.
CHART_NAMES = {"idleWorkFeed": "IdleWork, main thread", "idleWorkPrepare": "IdleWork, background",
               "runLoopQueue": "Texture ASRunLoopQueue", "workItem": "DispatchWorkItem per draw",
               "textureAsync": "Texture async display", "msCachedAsync": "MSCachedAsyncViewDrawing",
               "yyAsyncLayer": "YYAsyncLayer", "asyncDraw": "AsyncDraw",
               "idleWorkPreparePrefetch": "IdleWork, background, prefetching",
               "runLoopQueueTiles": "Texture ASRunLoopQueue, tiles",
               "workItemPrefetch": "DispatchWorkItem, prefetching",
               "textureAsyncPrefetch": "Texture async display, ranges",
               "msCachedAsyncPrefetch": "MSCachedAsyncViewDrawing, warmed",
               "workItemCareful": "DispatchWorkItem, careful",
               "workItemCarefulPrefetch": "DispatchWorkItem, careful, prefetching",
               "nukePipeline": "Nuke-like pipeline",
               "nukePrefetch": "Nuke-like, prefetching"}


def is_v3(document):
    return document.get("formatRevision", 2) >= 3


def kinds(document):
    return {s["name"]: s.get("kind", "mainThread") for s in document["strategies"]}

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


def feed_stats(document, profile, rate, name, metric):
    p = find(document["profiles"], "name", profile)
    r = find(p["rates"], "refreshHz", rate)
    return find(r["strategies"], "strategy", name)["metrics"][metric]


def throughput_stats(document, mode, rate, name, metric):
    workload = next(t for t in document["throughput"] if t["mode"] == mode and t["refreshHz"] == rate)
    return find(workload["strategies"], "strategy", name)["metrics"][metric]


def add_task_stats(document, name):
    return find(document["addTaskCost"]["strategies"], "strategy", name)["nsPerTask"]


def figures(first):
    """Every figure the tables print, as (label, digits, stats of one document)."""
    columns = FEED_COLUMNS + (COST_COLUMNS if is_v3(first) else [])
    for profile in first["profiles"]:
        rates = [rate["refreshHz"] for rate in profile["rates"]]
        for entry in profile["rates"][0]["strategies"]:
            name = entry["strategy"]
            for metric, _, digits in columns:
                for rate in rates:
                    label = f"{profile['name']} {rate} Hz {name} {metric}"
                    yield label, digits, lambda d, p=profile["name"], r=rate, n=name, m=metric: feed_stats(d, p, r, n, m)
    if not first["throughput"]:
        return
    rates = sorted({t["refreshHz"] for t in first["throughput"]})
    for name in (s["strategy"] for s in first["throughput"][0]["strategies"]):
        for mode in ("oneFrame", "batched"):
            for metric, digits in (("ratioToIdeal", 2), ("droppedFrames", 0)):
                for rate in rates:
                    label = f"throughput {mode} {rate} Hz {name} {metric}"
                    yield label, digits, lambda d, m=mode, r=rate, n=name, x=metric: throughput_stats(d, m, r, n, x)
        yield f"addTask {name} nsPerTask", 0, lambda d, n=name: add_task_stats(d, n)




# FeedDemo v4 (documents with "contests"): the README's one table. Each contest is an IdleWork setup and the
# peers given the same work at the same granularity with the same levers (FeedDemo's Verdict.allContests); each
# gets two rows, IdleWork's and its best peer's (the least blank cell·s over every profile-rate among the peers
# that drop no more frames than IdleWork plus one per profile-rate; if none, the least blank of all), so at
# most 8 rows. A cell is the sum over the profiles of the first document's medians, at each rate, with
# [min–max] the sums of the smallest and of the largest run figures over every document that holds them. The
# reload profiles count their blank cell·s from the reload on (their motion is light's).
CONTEST_COLUMNS = [
    ("droppedFrames", "Dropped frames", 0),
    ("blank", "Blank cell·s", 2),
    ("contentCompleteMs", "Content ms", 0),
    ("faults", "Wrong-cell applies + flicker", 0),
]


def is_v4(document):
    return "contests" in document


def blank_metric(document, profile):
    p = find(document["profiles"], "name", profile)
    metrics = p["rates"][0]["strategies"][0]["metrics"]
    if p.get("reloads") and "blankCellSecondsAfterReload" in metrics:
        return "blankCellSecondsAfterReload"
    return "blankCellSeconds"


def stats_or_none(document, profile, rate, name, metric):
    try:
        if metric == "blank":
            metric = blank_metric(document, profile)
        if metric == "faults":
            a = feed_stats(document, profile, rate, name, "wrongCellApplies")
            b = feed_stats(document, profile, rate, name, "flicker")
            return {k: value(a[k]) + value(b[k]) for k in ("median", "min", "max")}
        return feed_stats(document, profile, rate, name, metric)
    except (StopIteration, KeyError, IndexError):
        return None


def summed(documents, name, rate, metric):
    """(median sum of the first document, sum of the smallest, sum of the largest) over its profiles."""
    first = documents[0]
    median = low = high = 0.0
    for profile in (p["name"] for p in first["profiles"]):
        runs = [s for s in (stats_or_none(d, profile, rate, name, metric) for d in documents) if s is not None]
        median += value(runs[0]["median"])
        low += min(value(s["min"]) for s in runs)
        high += max(value(s["max"]) for s in runs)
    return median, low, high


def sum_text(triple, digits):
    median, low, high = (None if x == math.inf else x for x in triple)
    return figure([{"median": median, "min": low, "max": high}], digits)


def contest_rows(first):
    """(contest title, IdleWork setup, its best peer) for every contest of the first document."""
    rates = [r["refreshHz"] for r in first["profiles"][0]["rates"]]
    profiles = [p["name"] for p in first["profiles"]]

    def total(name, metric):
        return sum(value((stats_or_none(first, p, r, name, metric) or {"median": 0})["median"])
                   for p in profiles for r in rates)

    rows = []
    for contest in first["contests"]:
        mine, peers = contest["idleWork"], contest["peers"]
        allowed = total(mine, "droppedFrames") + len(profiles) * len(rates)
        smooth = [n for n in peers if total(n, "droppedFrames") <= allowed]
        best = min(smooth or peers, key=lambda n: total(n, "blank"))
        rows.append((contest["title"], mine, best))
    return rows


def contest_table(documents):
    first = documents[0]
    rates = [r["refreshHz"] for r in first["profiles"][0]["rates"]]
    rate_label = " / ".join(map(str, rates)) + " Hz"
    profiles = ", ".join(f"`{p['name']}`" for p in first["profiles"])
    print(f"#### Each IdleWork setup against the best peer given the same work (sums over {profiles})\n")
    print("| Contest | Strategy | " + " | ".join(f"{t} {rate_label}" for _, t, _ in CONTEST_COLUMNS) + " |")
    print("|---" * (len(CONTEST_COLUMNS) + 2) + "|")
    kind = kinds(first)
    for title, mine, best in contest_rows(first):
        for name in (mine, best):
            # Main-thread strategies draw into the cell that asks, on the main thread: they cannot apply to a
            # wrong cell or flicker, so that column cannot differ for them and shows a dash.
            cells = [" / ".join("—" if m == "faults" and kind.get(name) == "mainThread" else
                                sum_text(summed(documents, name, r, m), digits) for r in rates)
                     for m, _, digits in CONTEST_COLUMNS]
            print(f"| {title} | {NAMES.get(name, name)} | " + " | ".join(cells) + " |")
    print()


# FeedDemo v5 (documents whose figures keep every run's value, "runs"): the README's one table. Each row is an
# IdleWork setup against one peer, or several summed: in how many profile-rates IdleWork left less, as much or
# more blank time, and dropped fewer, as many or more frames — a two-sided Mann-Whitney U test per profile-rate
# over the runs of every document given (9 runs from three 3-run sweeps), with Holm's correction across a peer's
# profile-rates at 5% (Example/compare.py's test, FeedDemo's RankTest). The reload profiles count their blank
# time from the reload on.
VERDICT_ROWS = [
    ("Main thread, prefetching — Texture's display range, synchronous display (draws ahead too)",
     "idleWorkMainPrefetch", ["textureSyncRanges"]),
    ("Main thread, prefetching — Texture `ASRunLoopQueue` given the same tiles (no prefetching)",
     "idleWorkMainPrefetch", ["runLoopQueueTiles"]),
    ("Background, prefetching — a careful GCD user (QoS, cancels running draws)", "idleWorkPreparePrefetch",
     ["workItemCarefulPrefetch"]),
    ("Background, prefetching — Nuke-like `ImagePipeline` and `ImagePrefetcher`", "idleWorkPreparePrefetch",
     ["nukePrefetch"]),
    ("Background, prefetching — `DispatchWorkItem`, Texture's display range, MSCached (3 peers)",
     "idleWorkPreparePrefetch", ["workItemPrefetch", "textureAsyncPrefetch", "msCachedAsyncPrefetch"]),
]


def is_v5(document):
    try:
        return "runs" in document["profiles"][0]["rates"][0]["strategies"][0]["metrics"]["droppedFrames"]
    except (KeyError, IndexError):
        return False


def pooled_runs(documents, name, profile, rate, metric):
    values = []
    for d in documents:
        stats = stats_or_none(d, profile, rate, name, metric)
        if stats is not None and "runs" in stats:
            values += [value(v) for v in stats["runs"]]
    return values


def outcomes(documents, mine, peer, metric):
    """better / level / worse per profile-rate of the first document, Holm-corrected across them."""
    import importlib.util
    import os
    spec = importlib.util.spec_from_file_location("compare", os.path.join(os.path.dirname(__file__), "compare.py"))
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    first = documents[0]
    places = [(p["name"], r["refreshHz"]) for p in first["profiles"] for r in p["rates"]]
    pairs = [(pooled_runs(documents, mine, p, r, metric), pooled_runs(documents, peer, p, r, metric))
             for p, r in places]
    pairs = [(a, b) for a, b in pairs if a and b]
    if not pairs:
        sys.exit(f"readme-tables: no runs of both {mine} and {peer} in the documents")
    rejected = compare.holm([compare.mann_whitney_p(a, b) for a, b in pairs])
    result = []
    for (a, b), reject in zip(pairs, rejected):
        difference = compare.statistics.median(a) - compare.statistics.median(b)
        result.append("better" if reject and difference < 0 else "worse" if reject and difference > 0 else "level")
    # 9 runs at least, from distinct documents of one revision (a document given twice would count twice).
    return result, min(min(len(a), len(b)) for a, b in pairs)


def verdict_table(documents):
    first = documents[0]
    if len({d["formatRevision"] for d in documents}) != 1:
        sys.exit("readme-tables: the documents mix format revisions; give one sweep's documents")
    dates = [d["machine"]["date"] for d in documents]
    if len(set(dates)) != len(dates):
        sys.exit("readme-tables: a document is given twice (same machine.date): its runs would count twice")
    places = sum(len(p["rates"]) for p in first["profiles"])
    runs = None
    print(f"| IdleWork's setup against ({places} profile-rates a peer) | Blank time: less / level / more | "
          "Dropped frames: fewer / level / more |")
    print("|---|---|---|")
    for title, mine, peers in VERDICT_ROWS:
        counts = {m: {"better": 0, "level": 0, "worse": 0} for m in ("blank", "droppedFrames")}
        for peer in peers:
            for metric in counts:
                result, n = outcomes(documents, mine, peer, metric)
                runs = n if runs is None else min(runs, n)
                for outcome in result:
                    counts[metric][outcome] += 1
        cells = [" / ".join(str(counts[m][k]) for k in ("better", "level", "worse")) for m in ("blank", "droppedFrames")]
        print(f"| {title} | " + " | ".join(cells) + " |")
    if runs < 9:
        sys.exit(f"readme-tables: {runs} runs a figure; the table's tests need 9 (three 3-run sweeps)")



def tables(documents):
    """What the README prints: the verdict table (v5) or the contest table (v4). FeedDemo v4
    documents only (`Example/v3/` keeps the older ones, which the self-test reads)."""
    if not is_v4(documents[0]):
        sys.exit("readme-tables: needs a FeedDemo v4 document (with contests) first")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if is_v5(documents[0]):
            verdict_table(documents)
        else:
            contest_table(documents)
    return out.getvalue()


def headline_svg(documents):
    """The README's chart: blank cell·s (median, with the [min–max] of every document as a whisker) of the
    headline's strategies in every profile, one panel per refresh rate; a bar's label says its dropped frames
    when there were any."""
    first = documents[0]
    headline = ("Main thread, tiles, prefetching", "Background, prefetching") if is_v5(first) else (
        "Main thread, tiles", "Background, prefetching")
    chosen = [r for r in contest_rows(first) if r[0] in headline]
    rows = [name for _, mine, best in (chosen or contest_rows(first)[:2]) for name in (mine, best)]
    profiles = [p["name"] for p in first["profiles"]]
    rates = [r["refreshHz"] for r in first["profiles"][0]["rates"]]
    colours = ["#1f6feb", "#8c959f", "#1a7f37", "#bf8700"]
    bar, gap, left, top, panel_height = 14, 22, 60, 52, 190
    group = len(rows) * bar + gap
    width = max(left + len(profiles) * group + 20, left + len(rows) * 200, 720)
    height = top + len(rates) * (panel_height + 40) + 10
    def blank(d, p, r, n):
        return stats_or_none(d, p, r, n, "blank") or stats_or_none(first, p, r, n, "blank")
    highest = max(max(value(blank(d, p, r, n)["max"]) for d in documents)
                  for p in profiles for r in rates for n in rows)
    highest = highest if highest not in (0, math.inf) else 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11"><rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="16" font-size="13" font-weight="bold">Blank cell·s (lower is better): each kind\'s '
           f'recommended IdleWork setup against its best peer given the same work (reloads: from the reload on)</text>']
    for i, name in enumerate(rows):
        x = left + i * 200
        label = CHART_NAMES.get(name, NAMES.get(name, name).replace("*", "").replace("`", ""))
        out.append(f'<rect x="{x}" y="26" width="10" height="10" fill="{colours[i % 4]}"/>'
                   f'<text x="{x + 14}" y="35">{label}</text>')
    for k, rate in enumerate(rates):
        base = top + k * (panel_height + 40) + panel_height
        out.append(f'<text x="8" y="{base - panel_height + 10}" font-weight="bold">{rate} Hz</text>')
        out.append(f'<line x1="{left - 4}" y1="{base}" x2="{width - 10}" y2="{base}" stroke="#444"/>')
        out.append(f'<text x="{left - 6}" y="{base - panel_height + 10}" text-anchor="end">{highest:.2f}</text>')
        out.append(f'<text x="{left - 6}" y="{base}" text-anchor="end">0</text>')
        for j, profile in enumerate(profiles):
            gx = left + j * group
            out.append(f'<text x="{gx + len(rows) * bar / 2}" y="{base + 14}" text-anchor="middle">{profile}</text>')
            for i, name in enumerate(rows):
                stats = [blank(d, profile, rate, name) for d in documents]
                median = value(stats[0]["median"])
                low = min(value(st["min"]) for st in stats)
                high = max(value(st["max"]) for st in stats)
                h = lambda v: min(v, highest) / highest * (panel_height - 20)
                x = gx + i * bar
                out.append(f'<rect x="{x}" y="{base - h(median):.1f}" width="{bar - 2}" height="{h(median):.1f}" '
                           f'fill="{colours[i % 4]}"><title>{name} {profile} {rate} Hz: {text(median, 2)} '
                           f'[{text(low, 2)}–{text(high, 2)}]</title></rect>')
                cx = x + (bar - 2) / 2
                out.append(f'<line x1="{cx}" y1="{base - h(low):.1f}" x2="{cx}" y2="{base - h(high):.1f}" stroke="#000"/>')
                dropped = feed_stats(first, profile, rate, name, "droppedFrames")["median"]
                if dropped:
                    out.append(f'<text x="{cx}" y="{base - h(high) - 3:.1f}" text-anchor="middle" fill="#cf222e" '
                               f'font-size="9">{dropped:.0f}✕</text>')
    out.append(f'<text x="{left}" y="{height - 4}" fill="#555">Bars: medians of Example/results.json; whiskers: '
               f'[min–max] over every committed full run; red N✕: N dropped frames (median).</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def number(shown):
    """The value of a figure as printed ("never" is above every number)."""
    return math.inf if shown == "never" else float(shown.replace(",", ""))


def check(new, documents):
    """Lists the new run's medians outside the printed ranges; returns (outside, total)."""
    outside = total = 0
    for label, digits, stats in figures(documents[0]):
        try:
            mine = stats(new)
        except (StopIteration, KeyError, IndexError, TypeError):
            continue  # the new run did not measure this figure (a newcomer's run checks its own subset)
        runs = []
        for d in documents:
            try:
                runs.append(stats(d))
            except (StopIteration, KeyError, IndexError, TypeError):
                pass
        low = text(min(value(s["min"]) for s in runs), digits)
        high = text(max(value(s["max"]) for s in runs), digits)
        median = text(mine["median"], digits)
        total += 1
        if not number(low) <= number(median) <= number(high):
            outside += 1
            print(f"outside: {label}: {median} against [{low}–{high}]")
    print(f"{outside} of {total} figures outside the printed ranges")
    return outside, total


def main(arguments):
    if arguments and arguments[0] == "--check":
        if len(arguments) < 3:
            sys.exit("usage: readme-tables.py --check NEW.json results.json [more.json ...]")
        new = json.load(open(arguments[1]))
        check(new, [json.load(open(path)) for path in arguments[2:]])
        return
    if arguments and arguments[0] == "--verify-readme":
        if len(arguments) < 3:
            sys.exit("usage: readme-tables.py --verify-readme README.md results.json [more.json ...]")
        readme = open(arguments[1], encoding="utf-8").read()
        generated = tables([json.load(open(path)) for path in arguments[2:]])
        missing = [line for line in generated.splitlines() if line and line not in readme.splitlines()]
        if generated.strip() not in readme:
            for line in missing:
                print(f"readme-tables: not in {arguments[1]}: {line}")
            sys.exit(f"readme-tables: {arguments[1]} does not hold the tables of {', '.join(arguments[2:])} "
                     "(regenerate them with Example/readme-tables.py)")
        print(f"readme-tables: {arguments[1]} holds the tables of {len(arguments) - 2} documents")
        return
    if arguments and arguments[0] == "--svg":
        if len(arguments) < 3:
            sys.exit("usage: readme-tables.py --svg OUT.svg results.json [more.json ...]")
        with open(arguments[1], "w", encoding="utf-8") as out:
            out.write(headline_svg([json.load(open(path)) for path in arguments[2:]]))
        return
    if not arguments:
        sys.exit("usage: readme-tables.py results.json [more.json ...]")
    print(tables([json.load(open(path)) for path in arguments]), end="")


if __name__ == "__main__":
    main(sys.argv[1:])
