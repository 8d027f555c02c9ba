#!/usr/bin/env bash
# The first question on a new clone, before and after a change: the cortex
# of revision BASE (default HEAD~1) against the work tree's, each question
# asked with `cortex ask --json` on a fresh copy of prometheus (VERSION,
# default v0.54.1, from the Go module cache) with no .codecortex/, its
# files dated an hour back. Alternating runs (RUNS each, default 5);
# prints the median wall time, the records and the first three answers of
# the last run of each side. Both binaries get one seal key, in a
# temporary XDG_CONFIG_HOME.
#
#   bash scripts/bench-first-contact.sh [BASE]
#   RUNS=9 VERSION=v0.308.0 bash scripts/bench-first-contact.sh aaa6f11
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
RUNS=${RUNS:-5}
VERSION=${VERSION:-v0.54.1}
src=$(go mod download -json "github.com/prometheus/prometheus@$VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "bench-first-contact: prometheus $VERSION not in the module cache" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
mkdir "$tmp/base-src"
git archive "$base" | tar -x -C "$tmp/base-src"
(cd "$tmp/base-src" && go build -o "$tmp/cortex-base" ./cmd/cortex)
go build -o "$tmp/cortex-new" ./cmd/cortex
export XDG_CONFIG_HOME="$tmp/xdg"
python3 - "$tmp" "$src" "$RUNS" "$base" <<'PY'
import json, os, shutil, statistics, subprocess, sys, time
tmp, src, runs, base = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
questions = ["where is NewInstantQuery defined?", "where is DB.Head defined?", "where is QueueManager defined?",
             "where is Appender defined?", "who calls newScrapePool?", "who calls NewInstantQuery?"]
def fresh():
    d = f"{tmp}/tree"
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d)
    old = time.time() - 3600
    for root, dirs, files in os.walk(d):
        os.chmod(root, 0o755)
        for n in files:
            os.chmod(os.path.join(root, n), 0o644)
        for n in dirs + files:
            os.utime(os.path.join(root, n), (old, old), follow_symlinks=False)
    return d
print(f"| question | {base}: median | answer | this tree: median | answer |")
print("| --- | --- | --- | --- | --- |")
for q in questions:
    times, last = {"base": [], "new": []}, {}
    for i in range(runs):
        for side in (("base", "new") if i % 2 == 0 else ("new", "base")):
            d = fresh()
            t0 = time.perf_counter()
            out = subprocess.run([f"{tmp}/cortex-{side}", "ask", "--json", q], cwd=d,
                                 capture_output=True, text=True).stdout
            times[side].append(time.perf_counter() - t0)
            last[side] = json.loads(out) if out else {}
    cells = []
    for side in ("base", "new"):
        recs = last[side].get("records") or []
        top = ", ".join(f"{r['path']}:{r['start_line']}" for r in recs[:3]) or "no records"
        cells += [f"{statistics.median(times[side]):.2f} s", f"{len(recs)}: {top}"]
    print(f"| {q} | " + " | ".join(cells) + " |")
PY
