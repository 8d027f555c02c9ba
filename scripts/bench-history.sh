#!/usr/bin/env bash
# What reading the repository's git configuration before git runs costs
# the history commands: medians of RUNS alternating runs (default 21), in
# milliseconds of wall time and of CPU time (user + system, git's
# included), of
#
#   cortex history FILE
#   cortex history FILE:LINE
#   cortex history --since HEAD~50
#
# for each cortex binary given, in a clone of this repository (its own
# history: some 500 commits, FILE changed in about 60 of them). Pass the
# binaries to compare; the one built from this tree is the default:
#
#   bash scripts/bench-history.sh
#   bash scripts/bench-history.sh /tmp/cortex-before /tmp/cortex-after
#
# A binary from before a change is built from that commit's tree, e.g.
#   git archive COMMIT | tar -x -C /tmp/before && (cd /tmp/before && go build -o /tmp/cortex-before ./cmd/cortex)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-21}
FILE=${FILE:-docs/benchmarks.md}
LINE=${LINE:-720}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  go build -o "$tmp/cortex" ./cmd/cortex
  bins=("$tmp/cortex")
fi
git clone -q . "$tmp/repo"
export XDG_CONFIG_HOME="$tmp/config" # an empty trust store
cmds=("history $FILE" "history $FILE:$LINE" "history --since HEAD~50")
# ms CMD...: the wall and CPU times of one run, in milliseconds.
ms() {
  local TIMEFORMAT='%R %U %S' t
  t=$({ time "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; } 2>&1)
  echo "$t" | awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for b in "${bins[@]}"; do (cd "$tmp/repo" && "$b" history "$FILE" >/dev/null); done # warm the page cache
printf '| command |'
for b in "${bins[@]}"; do printf ' %s wall | CPU |' "$(basename "$b")"; done
printf '\n| --- |'
for _ in "${bins[@]}"; do printf ' --- | --- |'; done
printf '\n'
for c in "${cmds[@]}"; do
  declare -A wall=() cpu=()
  for _ in $(seq "$RUNS"); do
    for i in "${!bins[@]}"; do
      # shellcheck disable=SC2086 # the command's words are split on purpose
      read -r w u < <(cd "$tmp/repo" && ms "${bins[$i]}" $c)
      wall[$i]+="$w "
      cpu[$i]+="$u "
    done
  done
  printf '| `cortex %s` |' "$c"
  for i in "${!bins[@]}"; do
    printf ' %s ms | %s ms |' "$(echo "${wall[$i]}" | tr ' ' '\n' | grep . | median)" "$(echo "${cpu[$i]}" | tr ' ' '\n' | grep . | median)"
  done
  printf '\n'
  unset wall cpu
done
