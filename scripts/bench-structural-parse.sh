#!/usr/bin/env bash
# Side by side: cortex's built-in structural engine against ast-grep 0.51.1
# where nothing can be skipped: patterns without a literal, so every file
# is parsed and every node tried. One row per corpus and pattern (the
# issue's rows, then one per language), each the medians of RUNS
# alternating whole-process runs (default 5) of
#
#   cortex sg -p PAT -l LANG DIR --json --max-matches 10000000
#   ast-grep run -p PAT -l LANG DIR --json
#
# (for Kotlin, ast-grep given the grammar cortex links, then its own: see
# the Kotlin rows) with wall time and peak memory (alternate; the binaries
# dropped from the page cache before each row, see evict), their ratios, and
# whether the two found the same matches (paths and byte ranges, compared
# from --json=stream runs). Each row also times a release build of cortex,
# its C code (the tree-sitter runtime and grammars) compiled with
# CGO_CFLAGS="$RELEASE_CFLAGS" (default -O3 -g -DNDEBUG, what CMake's
# Release gives tree-sitter, where `go build` uses -O2 -g), whose matches
# are compared with ast-grep's too; RELEASE=0 leaves it out, and so does
# CORTEX unless RELEASE=1 asks for it (it builds the tree at hand). The
# emb columns time examples/structural-search, a host program that embeds
# the structural package alone (EMBEDDED=0 leaves it out, and so does
# CORTEX unless EMBEDDED=1): the engine without the rest of cortex linked
# in, its matches (printed one JSON object per line) compared as well.
# The w3 columns time a stand-in for a cortex that linked none of the MCP
# SDK, SQLite and SCIP's bindings (scripts/build-without-three.sh: the
# example, importing every other package of cortex's own too), searching
# as the example does (WITHOUT_THREE=0 leaves it out, and so does CORTEX
# unless WITHOUT_THREE=1).
# BEFORE=/path/to/cortex adds a build (an older commit's, say) to the same
# alternation, in columns of its own: this machine's speed drifts by a tenth
# between runs, more than most changes, so builds are compared within one. Corpora
# come from the Go module cache, npm and Debian's packages into $CACHE
# (default ~/.cache/cortex-bench); a row whose corpus cannot be fetched is
# skipped with a message.
#
#   bash scripts/bench-structural-parse.sh            # every row
#   RUNS=3 ONLY=go bash scripts/bench-structural-parse.sh
#   CORTEX=/path/to/older/cortex bash scripts/bench-structural-parse.sh
#   RELEASE=0 bash scripts/bench-structural-parse.sh   # without the release build
#   BEFORE=/tmp/cortex-old bash scripts/bench-structural-parse.sh   # and an older build
set -euo pipefail
cd "$(dirname "$0")/.."

want="ast-grep 0.51.1"
if [ "$(ast-grep --version 2>/dev/null)" != "$want" ]; then
  echo "bench-structural-parse: needs $want on PATH (bash .ci/install-structural.sh)" >&2
  exit 2
fi
RUNS=${RUNS:-5}
ONLY=${ONLY:-}
CACHE=${CACHE:-$HOME/.cache/cortex-bench}
mkdir -p "$CACHE"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${CORTEX:-}" ]; then
  cp "$CORTEX" "$tmp/cortex" # a cortex built elsewhere, such as an older commit
  RELEASE=${RELEASE:-0}
  EMBEDDED=${EMBEDDED:-0}
  WITHOUT_THREE=${WITHOUT_THREE:-0}
else
  go build -o "$tmp/cortex" ./cmd/cortex
fi
RELEASE=${RELEASE:-1}
EMBEDDED=${EMBEDDED:-1}
if [ "$EMBEDDED" != 0 ]; then
  go build -o "$tmp/embedded" ./examples/structural-search
fi
WITHOUT_THREE=${WITHOUT_THREE:-1}
if [ "$WITHOUT_THREE" != 0 ]; then
  bash scripts/build-without-three.sh "$tmp/without-three"
fi
RELEASE_CFLAGS=${RELEASE_CFLAGS:--O3 -g -DNDEBUG}
[ -n "${BEFORE:-}" ] && cp "$BEFORE" "$tmp/cortex-before"
if [ "$RELEASE" != 0 ]; then
  # The first build with these flags compiles the grammars again: minutes.
  CGO_CFLAGS="$RELEASE_CFLAGS" go build -o "$tmp/cortex-release" ./cmd/cortex
fi

modDir() { go mod download -json "$1" 2>/dev/null | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p'; }

# npmDir PKG@VER: the package's files, unpacked once.
npmDir() {
  local d="$CACHE/npm/$1"
  if [ ! -d "$d/package" ]; then
    mkdir -p "$d"
    (cd "$d" && npm pack --silent "$1" >/dev/null 2>&1 && tar xzf ./*.tgz && rm -f ./*.tgz) || { rm -rf "$d"; return 0; }
  fi
  echo "$d/package"
}

# debDir PKG: the Debian package's files, unpacked once.
debDir() {
  local d="$CACHE/deb/$1"
  if [ ! -d "$d/root" ]; then
    mkdir -p "$d"
    (cd "$d" && apt-get download "$1" >/dev/null 2>&1 && dpkg -x ./*.deb root && rm -f ./*.deb) || { rm -rf "$d"; return 0; }
  fi
  echo "$d/root"
}

# jdkDir: java.util and java.util.concurrent from the JDK's sources.
jdkDir() {
  local d="$CACHE/jdk-util"
  if [ ! -d "$d/java.base" ]; then
    local root zip
    root=$(debDir openjdk-17-source)
    zip=$(find "$root" -name src.zip 2>/dev/null | head -n 1)
    [ -n "$zip" ] || return 0
    mkdir -p "$d"
    (cd "$d" && python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [z.extract(n) for n in z.namelist() if n.startswith("java.base/java/util/") and n.endswith(".java")]' "$zip") || { rm -rf "$d"; return 0; }
  fi
  echo "$d/java.base"
}

# evict FILE...: drop the files from the page cache. A binary just written
# by the linker sits there in large folios, and each page the process
# touches then maps a whole folio (cortex's resident floor: 24 MB instead
# of 15); dropping both binaries before each row has both mapped as read
# from disk, the way an installed binary is. A file not there (the Kotlin
# grammar before it is built) is passed over.
evict() {
  sync
  python3 -c 'import os, sys
for f in filter(os.path.exists, sys.argv[1:]):
    fd = os.open(f, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)' "$@"
}
sgbin=$(readlink -f "$(command -v ast-grep)")

# alternate N DIR SG-COMMAND... -- CX-COMMAND... [-- CX-COMMAND...]: runs
# the commands in turn N times, ast-grep's as it is and each cortex one in
# DIR, each round in an order rotated by one, and prints the medians of their wall times (seconds, to the
# millisecond: /usr/bin/time counts hundredths, too coarse for the rows
# that take 20 ms), then of their peak memory (MB, from /usr/bin/time: a
# process forked from Python would count Python's own pages as its peak).
alternate() {
  python3 - "$tmp/rss" "$@" <<'PY'
import statistics, subprocess, sys, time
rss, n, cwd, rest = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
cmds, cur = [], []
for a in rest + ["--"]:
    if a == "--":
        cmds.append((cur, cwd if cmds else None))
        cur = []
    else:
        cur.append(a)
wall, mem = [[] for _ in cmds], [[] for _ in cmds]
# Each round starts one command further on: a process that runs right
# after one that freed tens of megabytes is slower (this VM hands freed
# pages back to its host, and taking them again costs), so every command
# takes every place in turn.
for r in range(n):
    for k in [(r + i) % len(cmds) for i in range(len(cmds))]:
        cmd, d = cmds[k]
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss, *cmd], cwd=d,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall[k].append(time.perf_counter() - start)
        mem[k].append(int(open(rss).read().split()[-1]) / 1024)
print(*(f"{statistics.median(x):.4f}" for x in wall), *(f"{statistics.median(x):.1f}" for x in mem))
PY
}


# spans FILE DIR KIND: one "path start end" line per match, sorted, from
# a --json=stream run of ast-grep (KIND sg) or cortex (KIND cx), or a
# --json run of examples/structural-search (KIND ex).
spans() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, os, sys
path, root, kind = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
out = []
for line in open(path, encoding="utf-8"):
    if not line.strip():
        continue
    m = json.loads(line)
    if kind == "sg":
        p = os.path.relpath(os.path.realpath(m["file"]), root)
        out.append((p, m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"]))
    elif kind == "ex":
        out.append((m["path"], m["range"]["start_byte"], m["range"]["end_byte"]))
    else:
        a = m["metadata"]["attributes"]
        out.append((m["path"], int(a["start_byte"]), int(a["end_byte"])))
for p, s, e in sorted(out):
    print(p, s, e)
PY
}

# The builds timed against ast-grep, how each is run (kinds: cx for a
# cortex, ex for a program run as the example is) and their columns' labels.
cortexes=("$tmp/cortex")
kinds=(cx)
labels=()
[ "$RELEASE" != 0 ] && cortexes+=("$tmp/cortex-release") && kinds+=(cx) && labels+=(rel)
[ -n "${BEFORE:-}" ] && cortexes+=("$tmp/cortex-before") && kinds+=(cx) && labels+=(before)
[ "$EMBEDDED" != 0 ] && cortexes+=("$tmp/embedded") && kinds+=(ex) && labels+=(emb)
[ "$WITHOUT_THREE" != 0 ] && cortexes+=("$tmp/without-three") && kinds+=(ex) && labels+=(w3)
# ratio A B: A / B to two places.
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
printf '%-28s %-5s %-16s %7s %7s %-5s %8s %8s %6s %7s %7s %6s' \
  corpus lang pattern files matches same sg_s cx_s ratio sg_MB cx_MB ratio
for l in "${labels[@]}"; do printf ' %8s %6s %7s %6s' "${l}_s" ratio "${l}_MB" ratio; done
printf '\n'
row() { # row NAME LANG DIR PATTERN [ast-grep -l value [ast-grep arguments...]]
  local name=$1 lang=$2 dir=$3 pat=$4 sglang=${5:-$2}
  local -a sgargs=("${@:6}")
  if [ -n "$ONLY" ] && [ "$ONLY" != "$lang" ]; then return; fi
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "skip: $name ($lang): corpus not available" >&2
    return
  fi
  # Warm the page cache for the corpus (not the binaries, see evict), and
  # check the match sets from one run each.
  evict "${cortexes[@]}" "$sgbin" "$tmp/kotlin.so"
  find "$dir" -type f -exec cat {} + >/dev/null 2>&1 || true
  ast-grep run "${sgargs[@]}" -p "$pat" -l "$sglang" --json=stream "$dir" >"$tmp/sg.json" 2>/dev/null || true
  spans "$tmp/sg.json" "$dir" sg >"$tmp/sg.spans"
  local n same=yes files cx i cmds=()
  for i in "${!cortexes[@]}"; do
    cx=${cortexes[i]}
    if [ "${kinds[i]}" = ex ]; then
      (cd "$dir" && "$cx" -p "$pat" -l "$lang" --json --max-matches 10000000 . >"$tmp/cx.json" 2>"$tmp/cx.err") || true
      cmds+=(-- "$cx" -p "$pat" -l "$lang" --json --max-matches 10000000 .)
    else
      (cd "$dir" && "$cx" sg -p "$pat" -l "$lang" --json=stream --max-matches 10000000 . >"$tmp/cx.json" 2>"$tmp/cx.err") || true
      cmds+=(-- "$cx" sg -p "$pat" -l "$lang" --json --max-matches 10000000 .)
    fi
    spans "$tmp/cx.json" "$dir" "${kinds[i]}" >"$tmp/cx.spans"
    if ! cmp -s "$tmp/sg.spans" "$tmp/cx.spans"; then
      same=no
      echo "  match sets differ ($(basename "$cx")): ast-grep $(wc -l <"$tmp/sg.spans"), cortex $(wc -l <"$tmp/cx.spans"):" >&2
      diff "$tmp/sg.spans" "$tmp/cx.spans" | head -n 6 >&2 || true
    fi
  done
  n=$(wc -l <"$tmp/sg.spans")
  files=$(cut -d' ' -f1 "$tmp/sg.spans" | sort -u | wc -l)
  local -a t
  read -r -a t < <(alternate "$RUNS" "$dir" ast-grep run "${sgargs[@]}" -p "$pat" -l "$sglang" --json "$dir" "${cmds[@]}")
  # t: the wall times of ast-grep and each cortex, then their peaks.
  local k=${#cortexes[@]}
  printf '%-28s %-5s %-16s %7d %7d %-5s %8.3f %8.3f %6s %7.0f %7.0f %6s' "$name" "$lang" "$pat" "$files" "$n" "$same" \
    "${t[0]}" "${t[1]}" "$(ratio "${t[1]}" "${t[0]}")" "${t[k+1]}" "${t[k+2]}" "$(ratio "${t[k+2]}" "${t[k+1]}")"
  local e
  for ((e = 2; e <= k; e++)); do
    printf ' %8.3f %6s %7.0f %6s' "${t[e]}" "$(ratio "${t[e]}" "${t[0]}")" "${t[k+1+e]}" "$(ratio "${t[k+1+e]}" "${t[k+1]}")"
  done
  printf '\n'
}

prom=$(modDir github.com/prometheus/prometheus@v0.308.0)
rxjs=$(npmDir rxjs@7.8.2)
flask=$(debDir python3-flask)
row "prometheus v0.308.0" go "$prom" '$F($$$A)'
row "prometheus v0.308.0" go "$prom" '$A == $A'
row "rxjs 7.8.2 src" ts "${rxjs:+$rxjs/src}" '$F($$$A)'
row "python3-flask 2.2.2" py "$flask" '$F($$$A)'
# One row per language, on real code of that language.
row "lodash 4.18.1" js "$(npmDir lodash@4.18.1)" '$F($$$A)'
rns=$(npmDir react-native-screens@4.30.1)
row "react-native-screens 4.30.1 src" tsx "${rns:+$rns/src}" '$F($$$A)'
row "serde 1.0.152 (Debian)" rs "$(debDir librust-serde-dev)" '$F($$$A)'
row "JDK 17 java.util" java "$(jdkDir)" '$F($$$A)'
libc=$(modDir modernc.org/libc@v1.80.1)
row "modernc.org/libc testdata" c "${libc:+$libc/testdata}" '$F($$$A)'
row "googletest 1.12.1 (Debian)" cpp "$(debDir googletest)" '$F($$$A)'
row "edge-js 26.1.0" cs "$(npmDir edge-js@26.1.0)" '$F($$$A)'
row "ruby-rack 2.2.22 (Debian)" rb "$(debDir ruby-rack)" '$F($$$A)'
row "php-symfony-console 5.4" php "$(debDir php-symfony-console)" '$F($$$A)'
row "libtool ltmain.sh (Debian)" bash "$(debDir libtool)" 'echo $$$A'
# Kotlin: ast-grep 0.51.1 bundles a fork of fwcd/tree-sitter-kotlin 0.3,
# which builds other trees than the grammar cortex links
# (tree-sitter-grammars/tree-sitter-kotlin, the newest the module proxy
# serves): a call with a trailing lambda is one call there, a call of a
# call here, and so on. The row gives ast-grep the grammar cortex links,
# as a custom language compiled at -O3 (ast-grep's release build compiles
# its own grammars so), so both tools build the same trees; the next row
# is ast-grep with its own grammar, whose matches differ.
ktmod=github.com/tree-sitter-grammars/tree-sitter-kotlin
ktsrc=$(modDir "$ktmod@$(go list -m -f '{{.Version}}' "$ktmod")")/src
kt=$(npmDir expo-modules-core@58.1.0)
if [ -z "$ONLY" ] || [ "$ONLY" = kt ]; then
  cc -shared -fPIC -O3 -I "$ktsrc" "$ktsrc/parser.c" "$ktsrc/scanner.c" -o "$tmp/kotlin.so"
  printf 'customLanguages:\n  kotlinlinked:\n    libraryPath: %s\n    languageSymbol: tree_sitter_kotlin\n    extensions: [kt, kts]\n    expandoChar: µ\n' \
    "$tmp/kotlin.so" >"$tmp/sgconfig.yml"
fi
row "expo-modules-core 58.1.0" kt "$kt" '$F($$$A)' kotlinlinked --config "$tmp/sgconfig.yml" --custom-languages allow
row "expo-modules-core (bundled)" kt "$kt" '$F($$$A)'
toml=$(modDir github.com/BurntSushi/toml@v1.6.0)
row "BurntSushi/toml toml-test" json "${toml:+$toml/internal/toml-test}" '{$$$A}'
