#!/usr/bin/env bash
# Validates FeedDemo's --json document: well-formed JSON with every key issue 3 documents.
#   swift run -c release --package-path Example FeedDemo --quick --json | Example/check-json.sh
#   Example/check-json.sh Example/results.json
# Exits non-zero (and says why) if the document is malformed or a key is missing or mistyped.
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
result_keys = {
    "strategy": str, "refreshHz": int, "frames": int, "droppedFrames": int, "p99FrameMs": number,
    "maxFrameMs": number, "contentCompleteMs": (number, type(None)), "contentIdealMs": (number, type(None)),
    "staleExecutions": int, "visibleTasksEvicted": int, "blankCellSecondsSlowDrag": number,
    "idleWakeupsPerSecond": number, "idleCpuMsPerSecond": number,
}
throughput_keys = {"strategy": str, "tasksPerSecond": number, "idealTasksPerSecond": number, "droppedFrames": int}

def check(items, keys, where):
    if not isinstance(items, list) or not items:
        problems.append(f"'{where}' must be a non-empty array")
        return
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            problems.append(f"{where}[{index}] is not an object")
            continue
        for key, kind in keys.items():
            if key not in item:
                problems.append(f"{where}[{index}] lacks '{key}'")
            elif isinstance(item[key], bool) or not isinstance(item[key], kind):
                problems.append(f"{where}[{index}].{key} has the wrong type: {item[key]!r}")

if not isinstance(doc, dict):
    sys.exit("check-json: the document is not a JSON object")
check(doc.get("results"), result_keys, "results")
if "throughput" not in doc:
    problems.append("missing 'throughput'")
elif doc["throughput"]:
    check(doc["throughput"], throughput_keys, "throughput")
if problems:
    sys.exit("check-json: " + "\n  ".join(["malformed FeedDemo JSON:"] + problems))
print(f"check-json: ok ({len(doc['results'])} results, {len(doc['throughput'])} throughput entries)")
PY
python3 -c "$program" "$input"
