#!/usr/bin/env bash
# Untrusted .gitignore files (issue 35): how long cortex's walks take on
# repositories whose .gitignore is built to make matching slow, and on
# prometheus, whose .gitignore files are ordinary. The trees are built at
# run time in a temporary directory: Go files in directories of 100, and a
# root .gitignore of
#
#   globs      58,000 patterns of stars around eight letters (1 MiB), or
#              5,000 over the large tree: none can be looked up, none matches
#   budget     256 of them: as many as the limit lets a directory have
#   lookups    58,000 names, extensions, prefixes and anchored paths (1 MiB)
#
# For each, the whole-process wall time of
#
#   sg      cortex sg -p foo -l kotlin: the walk alone (there is no Kotlin)
#   index   cortex index from nothing (the small trees and prometheus)
#   edit    cortex search --text Needle after a new file in one directory:
#           the refresh of a warm index, which reads that directory again
#
# with cortex built from the work tree and, with BASE, from that commit (git
# archive), alternating. Medians of RUNS (index: one run); a command that
# runs past CAP seconds (default 60) is stopped and shown as >CAP.
#
#   bash scripts/bench-ignore.sh [RUNS] [BASE]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
base=${2:-}
cap=${CAP:-60}
src=$(go mod download -json github.com/prometheus/prometheus@v0.308.0 | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "bench-ignore: prometheus not in the module cache" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/new" ./cmd/cortex
bins=(new)
if [ -n "$base" ]; then
  mkdir "$tmp/src"
  git archive "$base" | tar -x -C "$tmp/src"
  (cd "$tmp/src" && go build -o "$tmp/old" ./cmd/cortex)
  bins=(old new)
fi

# tree DIR N: N small Go files in directories of 100.
tree() {
  mkdir -p "$1"
  awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "pkg%03d/file_%05d_source.go\n", int(i / 100), i }' >"$tmp/list"
  cut -d/ -f1 "$tmp/list" | sort -u | (cd "$1" && xargs mkdir -p)
  while read -r f; do printf 'package p\n\nfunc F%s() {}\n' "${f:12:5}" >"$1/$f"; done <"$tmp/list"
}
globs() {
  awk -v n="$1" 'BEGIN { srand(7); s = "abcdefghijklmnopqrstuvwxyz"
    for (i = 0; i < n; i++) { p = "*"; for (k = 0; k < 8; k++) p = p substr(s, int(rand() * 26) + 1, 1) "*"; print p } }'
}
lookups() {
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) { k = i % 5
    if (k == 0) printf "file_%05d_source.go\n", i * 7
    else if (k == 1) printf "cache%06d/\n", i
    else if (k == 2) printf "*.ext%d\n", i
    else if (k == 3) printf "tmp%06d*\n", i
    else printf "/pkg%03d/file_%05d_source.go\n", i % 10, i * 3 } }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# ms BIN ARGS...: the wall time of one run in ms, or >CAP.
ms() {
  local t0 t1 rc=0
  t0=$(date +%s%N)
  timeout "$cap" "$@" >/dev/null 2>&1 || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" = 124 ]; then echo ">"; else echo $(((t1 - t0) / 1000000)); fi
}
# show FILE: the median of the times in FILE, or >CAP when a run was stopped.
show() {
  if grep -q '^>' "$1"; then echo ">${cap} s"; return; fi
  median <"$1" | awk '{ if ($1 >= 1000) printf "%.2f s", $1 / 1000; else printf "%d ms", $1 }'
}

# bench NAME DIR WHAT...: the rows of one tree, WHAT among sg index edit.
n=0
bench() {
  local name=$1 dir=$2
  shift 2
  for what in "$@"; do
    for b in "${bins[@]}"; do : >"$tmp/t.$b"; done
    case $what in
    index)
      for b in "${bins[@]}"; do
        rm -rf "$dir/.codecortex"
        ms "$tmp/$b" -C "$dir" index >>"$tmp/t.$b"
      done ;;
    sg)
      for _ in $(seq "$runs"); do
        for b in "${bins[@]}"; do ms "$tmp/$b" -C "$dir" sg -p foo -l kotlin >>"$tmp/t.$b"; done
      done ;;
    edit)
      for b in "${bins[@]}"; do
        rm -rf "$dir/.codecortex"
        timeout "$cap" "$tmp/$b" -C "$dir" index >/dev/null 2>&1 || true
        for _ in $(seq "$runs"); do
          n=$((n + 1))
          printf 'package p\n\nfunc Needle%d() {}\n' "$n" >"$(find "$dir" -mindepth 1 -maxdepth 1 -type d ! -name .codecortex | sort | head -1)/new_$n.go"
          ms "$tmp/$b" -C "$dir" search --text Needle >>"$tmp/t.$b"
        done
      done ;;
    esac
    printf '%-34s %-6s' "$name" "$what"
    for b in "${bins[@]}"; do printf ' %10s' "$(show "$tmp/t.$b")"; done
    printf '\n'
  done
}

printf '%-34s %-6s' tree command
for b in "${bins[@]}"; do printf ' %10s' "$b"; done
printf '\n'

cp -r "$src" "$tmp/prometheus"
chmod -R u+w "$tmp/prometheus"
bench "prometheus (1,500 files)" "$tmp/prometheus" sg index edit

tree "$tmp/small" 1000
globs 58000 >"$tmp/small/.gitignore"
bench "1,000 files, 58,000 globs (1 MiB)" "$tmp/small" sg index edit
globs 256 >"$tmp/small/.gitignore"
bench "1,000 files, 256 globs" "$tmp/small" sg index edit
lookups 58000 >"$tmp/small/.gitignore"
bench "1,000 files, 58,000 lookups (1 MiB)" "$tmp/small" sg index edit

tree "$tmp/large" 100000
globs 5000 >"$tmp/large/.gitignore"
bench "100,000 files, 5,000 globs" "$tmp/large" sg
globs 256 >"$tmp/large/.gitignore"
bench "100,000 files, 256 globs" "$tmp/large" sg
lookups 58000 >"$tmp/large/.gitignore"
bench "100,000 files, 58,000 lookups" "$tmp/large" sg
