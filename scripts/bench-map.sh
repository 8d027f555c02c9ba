#!/usr/bin/env bash
# The repository map on a real checkout, whole process: medians of RUNS
# (default 7) runs of
#
#   cortex map --budget BUDGET              (BUDGET default 1000)
#   cortex map --budget BUDGET --format mermaid
#   cortex impact --format mermaid SYMBOL   (when IMPACT names a symbol)
#
# with wall time, CPU time (user + system) and peak memory, after one
# cortex index (untimed) so the index and the graph snapshot are current.
# Then it checks the map's goals and exits non-zero when one fails: the
# printed text map fits the budget (a token per 3 bytes, as cortex
# counts), names at least 10 files, and holds each EXPECT entry, a
# "DIR:REGEXP": a definition in a file under DIR whose line (its
# signature) matches.
#
#   bash scripts/bench-map.sh /tmp/prom-map
#   EXPECT='model/labels:type.Labels storage:type.Append storage:type.Querier' IMPACT=storage.Appender \
#     bash scripts/bench-map.sh /tmp/prom-map
#
# The user configuration goes to a directory of its own (XDG_CONFIG_HOME);
# the index is written in the checkout's .codecortex/, as cortex does.
set -euo pipefail
checkout=$(readlink -f "${1:?usage: bench-map.sh CHECKOUT}")
cd "$(dirname "$0")/.."
RUNS=${RUNS:-7} BUDGET=${BUDGET:-1000} EXPECT=${EXPECT:-} IMPACT=${IMPACT:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$tmp/config}
go build -o "$tmp/cortex" ./cmd/cortex
(cd "$checkout" && "$tmp/cortex" index >/dev/null)
python3 - "$tmp/cortex" "$checkout" "$RUNS" "$BUDGET" "$EXPECT" "$IMPACT" <<'PY'
import os, re, resource, statistics, subprocess, sys, time
cortex, root, runs, budget, expect, impact = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split(), sys.argv[6]

def timed(args):
    walls, cpus, rss, out = [], [], 0, b""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run([cortex] + args, cwd=root, capture_output=True)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        rss = max(rss, after.ru_maxrss)
        if p.returncode != 0:
            sys.exit(f"cortex {' '.join(args)}: exit {p.returncode}: {p.stderr.decode()}")
        out = p.stdout
    print(f"{'cortex ' + ' '.join(args):55s} wall {statistics.median(walls)*1000:6.0f} ms  "
          f"cpu {statistics.median(cpus)*1000:6.0f} ms  max rss {rss/1024:5.0f} MB  {len(out)} bytes")
    return out

cases = [["map", "--budget", str(budget)], ["map", "--budget", str(budget), "--format", "mermaid"]]
if impact:
    cases.append(["impact", "--format", "mermaid", impact])
outs = [timed(c) for c in cases]
# The text map: a header line, then each file's path and its entries
# (a mark, the line, the signature), indented.
text = outs[0].decode()
files, entries, cur = [], [], None
for ln in text.splitlines()[1:]:
    if ln[:1] not in (" ", "\u2605"):
        cur = ln
        files.append(ln)
    else:
        entries.append((cur, ln))
header = text.splitlines()[0]
# The estimate cortex budgets with: evidence.EstimateTokens, a token per
# evidence.BytesPerToken (3) bytes.
printed = (len(outs[0]) + 2) // 3
print(f"map: {header.split(' ranked by')[0].rstrip(',')}; {printed} tokens printed of {budget}")
fails = []
if printed > budget:
    fails.append(f"over budget: {printed} tokens printed")
if len(files) < 10:
    fails.append(f"{len(files)} files, want at least 10")
for e in expect:
    d, rx = e.split(":", 1)
    hits = [f"{f}:{ln.split()[1] if ln.startswith(' ') else ln.split()[1]}" for f, ln in entries
            if (f + "/").startswith(d.rstrip("/") + "/") and re.search(rx, ln)]
    print(f"  {e:40s} {', '.join(hits) if hits else 'MISSING'}")
    if not hits:
        fails.append(f"{e} missing")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
