#!/usr/bin/env bash
# Semantic rename on real repositories (issue 38): for each repository,
# fetch an exact version from its registry, index it with its SCIP indexer,
# then
#   - count the references of a widely used symbol with a language server
#     (gopls for Go; pyright-langserver and typescript-language-server
#     through `cortex refs --lsp` on a copy with no SCIP index),
#   - try a rename onto a name the symbol's scope already has: it must be
#     refused (exit 1) with no file changed,
#   - time the preview (`cortex rename SYMBOL NEW --json`, RUNS runs, median),
#   - time the apply (`cortex rewrite apply ID --yes --no-validate` on RUNS
#     fresh copies, median), and once with the default validation,
#   - check that the project still builds (go build + go vet; tsc --noEmit;
#     pyright's error count unchanged and compileall),
#   - count the new name's references with the same server at the same
#     position,
# and print one table row per repository.
#
# usage: scripts/rename-check.sh [cobra] [immer] [requests] [prometheus]
#   (default: cobra immer requests; prometheus times the preview and the
#   refusal only: indexing it with scip-go takes minutes and gigabytes)
# env:   RUNS (default 5), WORK (default /tmp/rename-check),
#        CORTEX (a cortex binary; default: built from this tree)
#
# Sources: the Go module proxy (cobra v1.8.0, prometheus v0.54.1), the npm
# registry (immer 10.0.3, whose package ships its TypeScript src/; a
# tsconfig.json including src is written, and a one-line declaration of
# process.env, which immer's build gets from @types/node), Debian
# (python3-requests 2.28.1+dfsg-1, the requests package as installed, with
# a pyproject.toml naming it). Needs scip-go, scip-typescript, scip-python,
# gopls, pyright, typescript-language-server, tsc (bash .ci/install-precision.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-5}
WORK=${WORK:-/tmp/rename-check}
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$WORK/config}
export PATH="$(go env GOPATH)/bin:/usr/local/bin:$PATH"
mkdir -p "$WORK"

for tool in go gopls scip-go scip-typescript scip-python pyright pyright-langserver typescript-language-server tsc npm python3; do
	command -v "$tool" >/dev/null || { echo "rename-check: $tool not installed (bash .ci/install-precision.sh)" >&2; exit 1; }
done
if [ -z "${CORTEX:-}" ]; then
	CORTEX=$WORK/cortex
	(cd "$here" && go build -o "$CORTEX" ./cmd/cortex)
fi

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
log() { echo "rename-check: $*" >&2; }

# tree_digest DIR: one digest of every file but cortex's own directory.
tree_digest() {
	(cd "$1" && find . -path ./.codecortex -prune -o -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}

# fetch NAME DIR: a pristine copy of the repository in DIR.
fetch() {
	local name=$1 dir=$2 src
	rm -rf "$dir"
	case $name in
	cobra | prometheus)
		local mod=github.com/spf13/cobra@v1.8.0
		[ "$name" = prometheus ] && mod=github.com/prometheus/prometheus@v0.54.1
		src=$(go mod download -json "$mod" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		cp -r "$src" "$dir"
		chmod -R u+w "$dir"
		(cd "$dir" && go mod download)
		;;
	immer)
		mkdir -p "$dir"
		(cd "$WORK" && npm pack --silent immer@10.0.3 >/dev/null)
		tar xzf "$WORK/immer-10.0.3.tgz" -C "$dir" --strip-components=1
		rm -rf "$dir/dist" "$dir/compat"
		echo 'declare const process: { env: { [key: string]: string | undefined } }' >"$dir/node-env.d.ts"
		echo '{ "compilerOptions": { "target": "es2019", "module": "esnext", "moduleResolution": "node", "strict": true, "noEmit": true, "lib": ["es2019", "dom"] }, "include": ["src", "node-env.d.ts"] }' >"$dir/tsconfig.json"
		;;
	requests)
		mkdir -p "$dir" "$WORK/deb"
		(cd "$WORK/deb" && apt-get download python3-requests=2.28.1+dfsg-1 >/dev/null && dpkg-deb -x python3-requests_2.28.1+dfsg-1_all.deb x)
		cp -r "$WORK/deb/x/usr/lib/python3/dist-packages/requests" "$dir/"
		printf '[project]\nname = "requests"\nversion = "2.28.1"\n' >"$dir/pyproject.toml"
		;;
	esac
}

# check NAME DIR: the project's own checks; prints "ok" or what failed.
check() {
	local name=$1 dir=$2
	case $name in
	cobra | prometheus)
		if (cd "$dir" && go build ./... && go vet ./...) >"$WORK/$name.check.log" 2>&1; then echo ok; else echo "go build/vet failed"; fi ;;
	immer)
		if (cd "$dir" && tsc --noEmit -p .) >"$WORK/$name.check.log" 2>&1; then echo ok; else echo "tsc failed"; fi ;;
	requests)
		# requests as Debian installs it has pyright errors of its own
		# (unresolved optional imports, ...): the count must not change.
		local n
		n=$(cd "$dir" && pyright --outputjson . 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["errorCount"])' || true)
		if (cd "$dir" && python3 -m compileall -q requests) >"$WORK/$name.check.log" 2>&1; then echo "pyright errors $n"; else echo "compileall failed"; fi ;;
	esac
}

# count NAME DIR POS: how many references (declaration included) the
# language server finds at POS.
count() {
	local name=$1 dir=$2 pos=$3
	case $name in
	cobra | prometheus)
		(cd "$dir" && gopls references -d "$pos" | wc -l) ;;
	*)
		local c=$WORK/$name.count
		rm -rf "$c" && mkdir -p "$c"
		(cd "$dir" && tar cf - --exclude=./.codecortex .) | tar xf - -C "$c"
		"$CORTEX" -C "$c" refs --lsp "$pos" | grep -c near_exact ;;
	esac
}

row() {
	local name=$1 symbol=$2 new=$3 taken=$4
	local dir=$WORK/$name pristine=$WORK/$name.indexed
	log "$name: fetch"
	fetch "$name" "$dir"
	log "$name: index"
	local t0 t1
	t0=$(now)
	"$CORTEX" -C "$dir" index --precision >"$WORK/$name.index.log" 2>&1
	t1=$(now)
	local index_ms
	index_ms=$(ms "$t0" "$t1")
	local pos
	pos=$("$CORTEX" -C "$dir" def "$symbol" | head -1 | cut -f1 | sed 's/-.*//')
	rm -rf "$pristine" && cp -a "$dir" "$pristine"

	# Onto a taken name: refused, nothing written.
	local before after code refused
	before=$(tree_digest "$dir")
	set +e
	"$CORTEX" -C "$dir" rename "$symbol" "$taken" >"$WORK/$name.refused.txt" 2>&1
	code=$?
	set -e
	after=$(tree_digest "$dir")
	refused="no (exit $code)"
	if [ "$code" = 1 ] && [ "$before" = "$after" ]; then
		refused="yes, $(grep -c '^conflict' "$WORK/$name.refused.txt") conflict(s), tree unchanged"
	fi

	# Preview, RUNS times.
	local times=() plan id edits tier
	for _ in $(seq "$RUNS"); do
		t0=$(now)
		"$CORTEX" -C "$dir" rename "$symbol" "$new" --json >"$WORK/$name.plan.json"
		t1=$(now)
		times+=("$(ms "$t0" "$t1")")
	done
	local preview_ms preview_max
	preview_ms=$(printf '%s\n' "${times[@]}" | median)
	preview_max=$(printf '%s\n' "${times[@]}" | sort -n | tail -1)
	read -r edits tier < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(f["edits"]) for f in d["files"]), d["tier"])' "$WORK/$name.plan.json")

	if [ "$name" = prometheus ]; then
		printf '| %s | `%s` → `%s` | %s %s | — | — | %s ms (max %s) | — | — | — | %s | index %s s |\n' \
			"$name" "$symbol" "$new" "$edits" "$tier" "$preview_ms" "$preview_max" "$refused" "$((index_ms / 1000))"
		return
	fi

	local refs_before
	refs_before=$(count "$name" "$pristine" "$pos")

	# Apply without validation on RUNS fresh copies.
	times=()
	local copy=$WORK/$name.apply
	for _ in $(seq "$RUNS"); do
		rm -rf "$copy" && cp -a "$pristine" "$copy"
		# The index is sealed for the directory it was made in: vouch for the copy's.
		"$CORTEX" -C "$copy" precision-status --accept >/dev/null 2>&1
		id=$("$CORTEX" -C "$copy" rename "$symbol" "$new" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
		t0=$(now)
		"$CORTEX" -C "$copy" rewrite apply "$id" --yes --no-validate >"$WORK/$name.apply.txt" 2>&1
		t1=$(now)
		times+=("$(ms "$t0" "$t1")")
	done
	local apply_ms
	apply_ms=$(printf '%s\n' "${times[@]}" | median)

	# Once with the default validation (before and after), in the working copy.
	id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$WORK/$name.plan.json")
	t0=$(now)
	"$CORTEX" -C "$dir" rewrite apply "$id" --yes >"$WORK/$name.applied.txt" 2>&1
	t1=$(now)
	local validated_ms built_before built_after refs_after
	validated_ms=$(ms "$t0" "$t1")
	built_before=$(check "$name" "$pristine")
	built_after=$(check "$name" "$dir")
	refs_after=$(count "$name" "$dir" "$pos")
	printf '| %s | `%s` → `%s` | %s %s | %s | %s | %s ms (max %s) | %s ms | %s ms | %s → %s | %s | index %s s |\n' \
		"$name" "$symbol" "$new" "$edits" "$tier" "$refs_before" "$refs_after" "$preview_ms" "$preview_max" \
		"$apply_ms" "$validated_ms" "$built_before" "$built_after" "$refused" "$((index_ms / 1000))"
}

repos=("$@")
[ ${#repos[@]} -gt 0 ] || repos=(cobra immer requests)
echo "| repository | rename | edits | server refs before | after | preview (median of $RUNS) | apply, no validation (median of $RUNS) | apply with validation | checks before → after | onto a taken name | |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for r in "${repos[@]}"; do
	case $r in
	cobra) row cobra Command.Flags AllFlags Name ;;
	immer) row immer DRAFT_STATE DRAFT_SLOT DRAFTABLE ;;
	requests) row requests to_native_string as_native_string unicode_is_ascii ;;
	prometheus) row prometheus timestamp.FromTime FromTime2 FromFloatSeconds ;;
	*) echo "rename-check: unknown repository $r (cobra, immer, requests, prometheus)" >&2; exit 2 ;;
	esac
done
