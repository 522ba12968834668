#!/usr/bin/env bash
# Validates FeedDemo's --json document (format 2, fields documented in Example/README.md):
#   swift run -c release --package-path Example FeedDemo --quick --json | Example/check-json.sh
#   Example/check-json.sh Example/results.json
# Checks that every profile × rate × strategy has every metric as {median, min, max}, the throughput and
# addTask-cost sections likewise, that exactly one strategy is flagged recommended, and that the canary
# (noGuard) shows stale executions in the reload profile. Exits non-zero (and says why) otherwise.
set -euo pipefail
input="${1:--}"
read -r -d '' program <<'PY' || true
import json, sys

path = sys.argv[1]
try:
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    doc = json.loads(text)
except (OSError, ValueError) as error:
    sys.exit(f"check-json: not valid JSON: {error}")

problems = []
number = (int, float)
feed_metrics = [
    "droppedFrames", "droppedFramesFling", "droppedFramesFlingBack", "droppedFramesFill", "droppedFramesSlowDrag",
    "droppedFramesRest", "p99CommitLatencyMs", "blankCellSeconds", "blankCellSecondsFling",
    "blankCellSecondsSlowDrag", "contentCompleteMs", "contentLowerBoundMs", "contentRatio", "staleExecutions",
    "offscreenExecutions", "visibleTasksEvicted", "tasksEvicted", "idleWakeupsPerSecond", "idleCpuMsPerSecond",
    "drawsExecuted", "pendingAtIdleStart",
]
# "Never" (content not complete before the timeout) is null; every other figure is a number.
nullable = {"contentCompleteMs", "contentRatio"}
throughput_metrics = [
    "tasksPerSecond", "idealTasksPerSecond", "ratioToIdeal", "droppedFrames", "droppedFramesAfterWindow",
    "tasksExecuted", "timedOut",
]

def is_number(value):
    return isinstance(value, number) and not isinstance(value, bool)

def check_stat(stat, where, may_be_null=False):
    if not isinstance(stat, dict):
        problems.append(f"{where} is not a {{median, min, max}} object")
        return
    for key in ("median", "min", "max"):
        if key not in stat:
            problems.append(f"{where} lacks '{key}'")
        elif not (is_number(stat[key]) or (may_be_null and stat[key] is None)):
            problems.append(f"{where}.{key} is not a number: {stat[key]!r}")
    if all(is_number(stat.get(k)) for k in ("median", "min", "max")):
        if not stat["min"] <= stat["median"] <= stat["max"]:
            problems.append(f"{where}: min <= median <= max does not hold: {stat}")

def check_metrics(entry, names, where, nullable=()):
    metrics = entry.get("metrics")
    if not isinstance(metrics, dict):
        problems.append(f"{where} lacks 'metrics'")
        return
    for name in names:
        if name not in metrics:
            problems.append(f"{where}.metrics lacks '{name}'")
        else:
            check_stat(metrics[name], f"{where}.metrics.{name}", name in nullable)

if not isinstance(doc, dict) or doc.get("format") != 2:
    sys.exit("check-json: not a FeedDemo format-2 document")
for key, kind in [("command", str), ("quick", bool), ("runsPerFigure", int), ("machine", dict), ("settings", dict),
                  ("strategies", list), ("profiles", list), ("throughput", list)]:
    if not isinstance(doc.get(key), kind):
        problems.append(f"'{key}' missing or not a {kind.__name__}")

strategies = [s.get("name") for s in doc.get("strategies", [])]
for s in doc.get("strategies", []):
    for key, kind in [("name", str), ("policy", str), ("recommended", bool), ("canary", bool)]:
        if not isinstance(s.get(key), kind):
            problems.append(f"strategy {s.get('name')!r}: '{key}' missing or not a {kind.__name__}")
recommended = [s["name"] for s in doc.get("strategies", []) if s.get("recommended") is True]
if "idleWork" in strategies and recommended != ["idleWork"]:
    problems.append(f"exactly idleWork must be flagged recommended, got {recommended}")

for p in doc.get("profiles", []):
    name = p.get("name")
    for key in ("description", "rowHeightPt", "drawPasses", "commitFractionOfPeriod", "rates"):
        if key not in p:
            problems.append(f"profile {name} lacks '{key}'")
    for rate in p.get("rates", []):
        where = f"profiles[{name}].rates[{rate.get('refreshHz')}]"
        got = [e.get("strategy") for e in rate.get("strategies", [])]
        if got != strategies:
            problems.append(f"{where}: strategies {got} != {strategies}")
        for entry in rate.get("strategies", []):
            check_metrics(entry, feed_metrics, f"{where}.{entry.get('strategy')}", nullable)
        if name == "reload":
            for entry in rate.get("strategies", []):
                if entry.get("strategy") == "noGuard":
                    stale = entry.get("metrics", {}).get("staleExecutions", {}).get("median")
                    if not (is_number(stale) and stale > 0):
                        problems.append(f"{where}: canary noGuard shows no stale executions ({stale!r})")

for t in doc.get("throughput", []):
    where = f"throughput[{t.get('mode')}@{t.get('refreshHz')}]"
    if t.get("mode") not in ("oneFrame", "batched"):
        problems.append(f"{where}: unknown mode")
    for entry in t.get("strategies", []):
        check_metrics(entry, throughput_metrics, f"{where}.{entry.get('strategy')}")

cost = doc.get("addTaskCost")
if cost is not None:
    check_stat(cost.get("arrayAppendNsPerTask"), "addTaskCost.arrayAppendNsPerTask")
    got = [e.get("strategy") for e in cost.get("strategies", [])]
    if got != strategies:
        problems.append(f"addTaskCost: strategies {got} != {strategies}")
    for entry in cost.get("strategies", []):
        check_stat(entry.get("nsPerTask"), f"addTaskCost.{entry.get('strategy')}.nsPerTask")

if problems:
    sys.exit("check-json: " + "\n  ".join(["malformed FeedDemo JSON:"] + problems))
profiles = [p["name"] for p in doc["profiles"]]
print(f"check-json: ok ({len(profiles)} profiles {profiles}, {len(strategies)} strategies, "
      f"{len(doc['throughput'])} throughput workloads, addTaskCost {'present' if cost else 'absent'})")
PY
python3 -c "$program" "$input"
