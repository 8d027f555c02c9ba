#!/usr/bin/env bash
# The start-up floor: what a command costs before it reads a file. Medians
# of RUNS alternating runs (default 21), in an empty directory, of
#
#   ast-grep run -p '$F($$$A)' -l ts --json .     (when ast-grep is on PATH)
#   cortex sg -p '$F($$$A)' -l ts --json .
#   cortex version
#   structural-search -p '$F($$$A)' -l ts --json .  (examples/structural-search:
#     the same search from a host that links the structural layer alone)
#   programs whose main does nothing but import one package: the
#   structural layer, then each large dependency cortex links (net/http,
#   the MCP SDK, SQLite, SCIP's protobuf bindings), then none at all
#   structural-search again, also importing each of cortex's own packages
#     that does not import the MCP SDK, SQLite or SCIP's bindings: a
#     stand-in for a cortex that linked none of the three
#
# with wall time, CPU time (user + system) and peak memory, the binaries
# dropped from the page cache first (see bench-structural-parse.sh). Every
# package a binary links is initialised when it starts, whatever the
# command; the one-import programs show what each part costs alone (they
# share the runtime, so their excesses over the empty one overlap).
#
#   bash scripts/bench-startup.sh
#   RUNS=41 bash scripts/bench-startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-21}
tmp=$(mktemp -d)
src=$(mktemp -d ./cmd/startup-floor.XXXXXX) # inside the module, removed on exit
trap 'rm -rf "$tmp" "$src"' EXIT
go build -o "$tmp/cortex" ./cmd/cortex
go build -o "$tmp/structural-search" ./examples/structural-search
# alone NAME [IMPORT]: a program that only imports IMPORT, as $tmp/NAME.
alone() {
  mkdir "$src/$1"
  if [ -n "${2:-}" ]; then
    printf 'package main\n\nimport _ "%s"\n\nfunc main() {}\n' "$2" >"$src/$1/main.go"
  else
    printf 'package main\n\nfunc main() {}\n' >"$src/$1/main.go"
  fi
  go build -o "$tmp/$1" "$src/$1"
  floors+=(--- "$tmp/$1")
  bins+=("$tmp/$1")
}
floors=() bins=()
alone structural-only github.com/codecortex/codecortex/structural
alone net-http-only net/http
alone mcp-sdk-only github.com/modelcontextprotocol/go-sdk/mcp
alone sqlite-only modernc.org/sqlite
alone scip-only github.com/scip-code/scip/bindings/go/scip
alone no-imports
# The stand-in for a cortex without the MCP SDK, SQLite and SCIP's bindings.
bash scripts/build-without-three.sh "$tmp/without-three"
bins+=("$tmp/without-three")
mkdir "$tmp/empty"
cmds=()
if command -v ast-grep >/dev/null 2>&1; then
  cmds+=(--- ast-grep run -p '$F($$$A)' -l ts --json .)
fi
cmds+=(--- "$tmp/cortex" sg -p '$F($$$A)' -l ts --json . --- "$tmp/cortex" version
  --- "$tmp/structural-search" -p '$F($$$A)' -l ts --json . "${floors[@]}"
  --- "$tmp/without-three" -p '$F($$$A)' -l ts --json .)
python3 - "$tmp/empty" "$RUNS" "$(readlink -f "$(command -v ast-grep 2>/dev/null || echo /dev/null)")" \
  "$tmp/cortex" "$tmp/structural-search" "${bins[@]}" "${cmds[@]}" <<'PY'
import os, statistics, subprocess, sys, tempfile, time
cwd, n = sys.argv[1], int(sys.argv[2])
bins, cmds = [], []
for a in sys.argv[3:]:
    if a == "---":
        cmds.append([])
    elif cmds:
        cmds[-1].append(a)
    else:
        bins.append(a)
os.sync()
for b in bins:
    if os.path.isfile(b):
        fd = os.open(b, os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
rss = tempfile.mktemp()
wall, cpu, mem = ([[] for _ in cmds] for _ in range(3))
for r in range(n):
    for k in [(r + i) % len(cmds) for i in range(len(cmds))]:  # each command in each place in turn
        cmd = cmds[k]
        start = time.perf_counter()
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss, *cmd], cwd=cwd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        wall[k].append(time.perf_counter() - start)
        cpu[k].append(ru.ru_utime + ru.ru_stime)
        mem[k].append(int(open(rss).read().split()[-1]) / 1024)
os.remove(rss)
print(f"{'command':44} {'wall ms':>8} {'cpu ms':>8} {'peak MB':>8}")
for k, cmd in enumerate(cmds):
    name = " ".join(os.path.basename(c) if c.startswith("/") else c for c in cmd)
    print(f"{name[:44]:44} {statistics.median(wall[k])*1e3:8.1f} {statistics.median(cpu[k])*1e3:8.1f} {statistics.median(mem[k]):8.1f}")
PY
