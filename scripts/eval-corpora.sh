#!/usr/bin/env bash
# Fetches the generated evaluation's corpora: real repositories at pinned
# versions, each download checked against a pinned SHA-256, unpacked into a
# cache outside this repository, and builds the SCIP indexes that serve as
# the truth for Go, TypeScript, JavaScript and Python. Idempotent: a corpus
# whose tree is in place is left alone, and an index that exists is kept
# (FORCE_SCIP=1 rebuilds the indexes).
#
# Sources, and nothing else: the Go module proxy (go mod download), the npm
# registry (npm pack) and Debian's archive through apt (binary packages that
# ship sources, and source packages through an apt state kept in the cache,
# so the system's sources.list is never touched). No third-party source is
# committed to this repository.
#
#	bash scripts/eval-corpora.sh            # fetch, verify, unpack, index
#	EVAL_CACHE=/some/dir bash scripts/eval-corpora.sh
#	bash scripts/eval-corpora.sh --list     # the corpora, one per line
#	bash scripts/eval-corpora.sh --only cobra,semver
#	bash scripts/eval-corpora.sh --held-out # the held-out corpora instead (below)
#	bash scripts/eval-corpora.sh --held-out-2 # the second held-out set (below)
#	bash scripts/eval-corpora.sh --held-out-3 # the third held-out set (below)
#
# Layout under $EVAL_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/codecortex-eval):
#
#	dl/NAME.*          the downloads, verified
#	corpora/NAME/      each corpus's tree, the root a question's paths are relative to
#	scip/NAME.scip     the SCIP index of a Go, TypeScript, JavaScript or Python corpus
#	corpora.tsv        name, language, version, origin: what the generator reads
#
# Needs: go, npm, apt-get, dpkg-deb, tar, xz, sha256sum; scip-go,
# scip-typescript and scip-python (bash .ci/install-precision.sh); ripgrep,
# the baseline the evaluation compares with (installed here with apt when
# missing).
set -euo pipefail

# --held-out selects the held-out corpora (HELDOUT below) and, unless
# EVAL_CACHE says otherwise, a cache of their own, so that the published
# tables' default runs never include them.
HELD_OUT=""
case "${1:-}" in
--held-out)
	HELD_OUT=1
	shift
	;;
--held-out-2)
	HELD_OUT=2
	shift
	;;
--held-out-3)
	HELD_OUT=3
	shift
	;;
esac
if [ "$HELD_OUT" = 1 ]; then
	EVAL_CACHE=${EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codecortex-eval-heldout}
elif [ "$HELD_OUT" = 2 ]; then
	EVAL_CACHE=${EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codecortex-eval-heldout2}
elif [ "$HELD_OUT" = 3 ]; then
	EVAL_CACHE=${EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codecortex-eval-heldout3}
else
	EVAL_CACHE=${EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codecortex-eval}
fi

# The corpora. Each line: name, language, version, origin, the SHA-256 of
# the downloaded file, and the subdirectory of the unpacked download that
# becomes the corpus root. Why each was chosen:
#
#   cobra          Go; mid-size CLI library; the existing fixtures' tree, so
#                  the two evaluations can be compared; interfaces few, calls many.
#   chi            Go; a router with interfaces (Router, Routes) that several
#                  types implement, middleware as functions; tests beside code.
#   pflag          Go; the Value interface has dozens of implementations, the
#                  hard case for "what implements X" without SCIP.
#   immer          TypeScript; small, shipped as its TS sources (src/), with
#                  classes, interfaces and many overloaded names.
#   mobx           TypeScript; mid-size, TS sources, classes that implement
#                  interfaces and extend each other (ObservableValue, Atom).
#   commander      JavaScript; CommonJS classes with extends (Command extends
#                  EventEmitter, InvalidArgumentError extends CommanderError).
#   ws             JavaScript; Node classes, module-level helper functions
#                  called from several files.
#   requests       Python; a widely read package: classes with bases
#                  (exceptions, adapters), functions called across modules.
#   click          Python; mid-size, deep class hierarchies (Command, Group,
#                  ParamType subclasses), decorators.
#   regex-syntax   Rust; traits (Visitor) with several impls, free functions
#                  and methods with the same names in different modules.
#   semver         Rust; small crate with impl Trait for (Display, FromStr,
#                  Ord) and inherent methods.
#   rack           Ruby; classes, modules included into classes, subclasses,
#                  methods called through receivers.
#   thor           Ruby; class hierarchy (Thor < Thor::Base stuff, Argument
#                  subclasses), mixins.
#   jsoup          Java; a class hierarchy (Node, Element, LeafNode,
#                  TextNode, Evaluator's many subclasses) with JUnit tests.
#   jansson        C; a library of functions with a test suite that calls them.
#
# The sizes are moderate on purpose: every question runs in three modes,
# each on a fresh copy, on a machine that is shared.
CORPORA=$(
	cat <<'EOF'
cobra	go	v1.8.0	gomod:github.com/spf13/cobra	ba12924bbf9b40c3dfaddee45fb971a43908eb73fe0ffbbf7fd9e659e285c99c	.
chi	go	v5.0.12	gomod:github.com/go-chi/chi/v5	d64106bdfc26ca0ba3d8bfb008abbebafe7e75a9460c5307ea94d423360afd97	.
pflag	go	v1.0.5	gomod:github.com/spf13/pflag	fc6e704f2f6a84ddcdce6de0404e5340fa20c8676181bf5d381b17888107ba84	.
immer	ts	10.0.3	npm:immer	1c7570272a9af8cd685cd805bdd4422bbcbc8e5fb2ac0dd6e9b2c783f7e7a1fd	package
mobx	ts	6.12.0	npm:mobx	13518444391b3078427cf98a6c154a9ddfdcd41ec81b983a289306f4a6faf7f0	package
commander	js	11.1.0	npm:commander	54cbc888e72368c77004e9fbb3065596910f5f9ffad23f01e78e31ad4da3d05e	package
ws	js	8.16.0	npm:ws	fba36089920b573abde5f5a857e58270c25e0a6f8cfed749cc729c937d0d7f15	package
requests	python	2.28.1+dfsg-1	deb:python3-requests	c75b5c05d8d4a813bd83c3d432ffe65a2ca13e771bc91d4b9787690097598603	usr/lib/python3/dist-packages
click	python	8.1.3-2	deb:python3-click	c3af7e231d711f7fdb9a2fac4954061fe423ea517279bc30bf95a0920738279b	usr/lib/python3/dist-packages
regex-syntax	rust	0.6.27-1	deb:librust-regex-syntax-dev	16c9879e07d6f9c6b2618906126d17e51ec8b04bced0fe3bb0cf0f3062f8a353	usr/share/cargo/registry/regex-syntax-0.6.27
semver	rust	1.0.14-1	deb:librust-semver-dev	bf3719b7aac4b7f16f0d68a7037306dbc1532758fe7a5dea01254e85cecaca8c	usr/share/cargo/registry/semver-1.0.14
rack	ruby	2.2.22-0+deb12u1	deb:ruby-rack	18bab2c3caffa2b1a35cd73d49652d749909e87fd2d5b57dd4a594a02a6ad157	usr/share/rubygems-integration/all/gems/rack-2.2.22
thor	ruby	1.2.1-2	deb:ruby-thor	509715d16039ee7336531718e2497d0f81ae125b9ee53f321dd909c2f03fd2e1	usr/share/rubygems-integration/all/gems/thor-1.2.1
jsoup	java	1.15.3	debsrc:jsoup:1.15.3-1:jsoup_1.15.3.orig.tar.xz	052511f0be47511f9b2a17d44fc1eccc4b5373e77cc5a3221e34b6af437e1e2e	*
jansson	c	2.14	debsrc:jansson:2.14-2:jansson_2.14.orig.tar.gz	c739578bf6b764aa0752db9a2fdadcfe921c78f1228c7ec0bb47fa804c55d17b	*
EOF
)

# The held-out corpora: other repositories, chosen after the code was
# written and never used to tune it, to check that the figures of the
# corpora above are not theirs alone (docs/eval.md, "Held out"). Chosen
# for styles the corpora above lack:
#
#   mux            Go; a router whose Route and Router hold most methods,
#                  matchers as an interface with many small implementations.
#   logrus         Go; Hook and Formatter interfaces, Entry and Logger with
#                  methods of the same names calling each other.
#   rxjs           TypeScript; src/ of a large library: Subject extends
#                  Observable, Subscriber extends Subscription, operators
#                  as free functions in one file each.
#   express        JavaScript; prototype methods assigned to objects
#                  (app.get = function ...) rather than classes.
#   flask          Python; a framework with a deep class hierarchy (Flask <
#                  Scaffold, Blueprint < Scaffold) and module-level helpers.
#   log            Rust; the Log trait, its impls and macros.
#   sinatra        Ruby; one large file of nested classes and modules.
#   jcommander     Java; converters and validators as interfaces with many
#                  implementations (BaseConverter's subclasses), TestNG tests.
#   cjson          C; one library file and a test suite calling it.
HELDOUT=$(
	cat <<'EOF'
mux	go	v1.8.1	gomod:github.com/gorilla/mux	728243623caa67f64e4a0b6c59dde3f762918d9e729266167ba46d8df56c193a	.
logrus	go	v1.9.3	gomod:github.com/sirupsen/logrus	4501f4e6b858bfdd997671fcdd2f647a3178b29b6b4d1344caa7c07517121dd0	.
rxjs	ts	7.8.1	npm:rxjs	c532167725ab7d085123209156c93cef22f2479cb9c8527060f1cd903aa9d149	package
express	js	4.18.2	npm:express	8a4a69997fb326bd5966256709dbce2acff6cd53e048fc017c28b8c85f91c37e	package
flask	python	2.2.2-3	deb:python3-flask	2c8c9a408c2373d8b42f0d3434f17fc1a710bc81e52273b96597b25c57b399d7	usr/lib/python3/dist-packages
log	rust	0.4.17-3	deb:librust-log-dev	bd34d9fc5aaa80121cb1446f848ec99993f97c18f743bcb3f6c4824644c1d0cd	usr/share/cargo/registry/log-0.4.17
sinatra	ruby	3.0.5-3+deb12u1	deb:ruby-sinatra	7980ec9e78c5e48bf9062111c68296c183c8fb2bb0b522f85e3dc04129221323	usr/share/rubygems-integration/all/gems/sinatra-3.0.5
jcommander	java	1.71	debsrc:jcommander:1.71-4:jcommander_1.71.orig.tar.xz	76042dd8287e3feaae3693967aecc59dcb84475546b3dc87741c4ea3e0516071	*
cjson	c	1.7.15	debsrc:cjson:1.7.15-1+deb12u4:cjson_1.7.15.orig.tar.gz	5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2	*
EOF
)
# The second held-out set, chosen on 2026-12-06 after the first had been
# used to improve the answers (so that it no longer judged them), and
# never used to tune them:
#
#   gin            Go; Context, Engine and RouterGroup with many methods,
#                  render and binding interfaces with many implementations.
#   query-core     TypeScript; src/ of @tanstack/query-core: observers that
#                  extend Subscribable, caches, and tests in src/__tests__.
#   koa            JavaScript; objects of methods (context, request,
#                  response) delegated to each other, one class.
#   jinja2         Python; a compiler and its node classes, visitors.
#   rake           Ruby; Task and its subclasses, modules mixed in.
#   bytes          Rust; the Buf and BufMut traits, implemented for many types.
#   joptsimple     Java; option specs as a class hierarchy, JUnit tests.
#   libyaml        C; a parser, an emitter and their tests.
HELDOUT2=$(
	cat <<'EOF'
gin	go	v1.9.1	gomod:github.com/gin-gonic/gin	ef6482353db50bfdd85b6a84f7cdf2ed0a793597b6cf29c694a1df606d2f8e7e	.
query-core	ts	5.17.19	npm:@tanstack/query-core	e21ce1ecb36446c8c55bd60b776f1ce4f181052853781551204f28f1534ea5c4	package
koa	js	2.14.2	npm:koa	bad6f322658a51dab5735fdedc4f11ef09f03e61cb92887f3a3003b1f863d611	package
jinja2	python	3.1.2-1+deb12u3	deb:python3-jinja2	914e3a26742b488bca661dd12dc06198262c3a99b68f2f20ef7310aecdf82cae	usr/lib/python3/dist-packages
rake	ruby	13.0.6-3	deb:rake	9818519ad01d850db5b52c35bddee7571764cb6838f9ba4b1efab76613a4b9f9	usr/share/rubygems-integration/all/gems/rake-13.0.6
bytes	rust	1.2.1-1	deb:librust-bytes-dev	86fbba5fe9d10f1eeb28944e52cfc8caa75f9a509c3603b70f8107f151744fcc	usr/share/cargo/registry/bytes-1.2.1
joptsimple	java	5.0.4	debsrc:joptsimple:5.0.4-4:joptsimple_5.0.4.orig.tar.gz	efb97daa0086a8c0d44877e9247a57cce3342dc5c1ed0f7ab0cf5e1a2b4b6a5b	*
libyaml	c	0.2.5	debsrc:libyaml:0.2.5-1:libyaml_0.2.5.orig.tar.gz	fa240dbf262be053f3898006d502d514936c818e422afdcf33921c63bed9bf2e	*
EOF
)
# The third held-out set, chosen on 2026-12-06 after the second had been
# used to improve the answers, and never used to tune them. The pins of
# Debian's files are those of its archive's indexes (Packages, Sources):
#
#   echo           Go; Context, an interface, implemented by one unexported
#                  struct that every handler calls through the interface.
#   redux-toolkit  TypeScript; src/ of @reduxjs/toolkit: functions that make
#                  functions (createSlice, createAsyncThunk), few classes.
#   axios          JavaScript; lib/ as ES modules: Axios, AxiosError and its
#                  subclasses, AxiosHeaders, helpers imported by name.
#   markdown       Python; processors and extensions as class hierarchies
#                  (BlockProcessor, InlineProcessor, Extension subclasses).
#   serde-json     Rust; the Formatter and Read traits, impls for many types,
#                  macros.
#   faraday        Ruby; middleware and adapters as subclasses, a Connection
#                  delegating to them.
#   args4j         Java; OptionHandler and its many subclasses, annotations,
#                  JUnit tests.
#   cmark          C; a parser, a node API used across files, renderers.
HELDOUT3=$(
	cat <<'EOF'
echo	go	v4.11.4	gomod:github.com/labstack/echo/v4	25b6dd9a17a87186dbc13c73e466df5ce953cfc71fefbaa8d73c782759909781	.
redux-toolkit	ts	2.2.1	npm:@reduxjs/toolkit	687ad62cdb9d65d6d630cf0e2ba0e9edd2a36bc0c4137b57613fc8921936b157	package
axios	js	1.6.7	npm:axios	f85a065d8d65b9d402f5159c544eaee0da612ae0293142e92642cd7350d299ac	package
markdown	python	3.4.1-2+deb12u1	deb:python3-markdown	7f98e975cf0cc5d6b63d1ea76f1e1f2c88df91d873eac58eef8bc89a25a25d93	usr/lib/python3/dist-packages
serde-json	rust	1.0.87-1	deb:librust-serde-json-dev	2d053de630af6649c40a39d9ab6268d5469385289016a1205d0dec196e7b77d2	usr/share/cargo/registry/serde_json-1.0.87
faraday	ruby	1.1.0-7	deb:ruby-faraday	67e17b9012a198443552c9df47a8cbcea4285aba06c48cc2b772792d3c57e4c0	usr/share/rubygems-integration/all/gems/faraday-1.1.0
args4j	java	2.33	debsrc:args4j:2.33-2:args4j_2.33.orig.tar.xz	62dac627ebe5e7afb105640597c87f86b1458c583a6e477d1710fd198c48231e	*
cmark	c	0.30.2	debsrc:cmark:0.30.2-6:cmark_0.30.2.orig.tar.gz	6c7d2bcaea1433d977d8fed0b55b71c9d045a7cdf616e3cd2dce9007da753db3	*
EOF
)
case "$HELD_OUT" in
1) CORPORA=$HELDOUT ;;
2) CORPORA=$HELDOUT2 ;;
3) CORPORA=$HELDOUT3 ;;
esac

if [ "${1:-}" = "--list" ]; then
	printf '%s\n' "$CORPORA" | cut -f1-4
	exit 0
fi
# --only NAME[,NAME…] fetches and indexes those corpora alone (the manifest
# still lists every corpus already in the cache).
ONLY=""
if [ "${1:-}" = "--only" ]; then
	ONLY=",${2:?--only needs names},"
fi

log() { echo "eval-corpora: $*" >&2; }
die() {
	log "$*"
	exit 1
}

for tool in go npm apt-get dpkg-deb tar sha256sum; do
	command -v "$tool" >/dev/null || die "$tool is not on PATH"
done

# The baseline: ripgrep.
if ! command -v rg >/dev/null; then
	log "installing ripgrep (the baseline) with apt"
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y -q ripgrep >/dev/null
	else
		sudo apt-get install -y -q ripgrep >/dev/null
	fi
fi

mkdir -p "$EVAL_CACHE/dl" "$EVAL_CACHE/corpora" "$EVAL_CACHE/scip"
DL=$EVAL_CACHE/dl

# verify FILE SHA256: the download's digest must be the pinned one.
verify() {
	local got
	got=$(sha256sum "$1" | cut -d' ' -f1)
	if [ "$got" != "$2" ]; then
		rm -f "$1"
		die "$(basename "$1"): SHA-256 $got, pinned $2; refusing it"
	fi
}

# The source packages are found through an apt state kept in the cache.
APT_DIR=$EVAL_CACHE/apt
apt_src() {
	apt-get -q -o Dir::Etc::SourceList="$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT_DIR/lists" -o Dir::Cache="$APT_DIR/cache" "$@"
}
apt_src_ready=""
apt_src_init() {
	[ -n "$apt_src_ready" ] && return 0
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	echo "deb-src http://deb.debian.org/debian bookworm main" >"$APT_DIR/sources.list"
	if ! ls "$APT_DIR/lists/"*Sources* >/dev/null 2>&1; then
		apt_src update >/dev/null
	fi
	apt_src_ready=1
}

# fetch NAME VERSION ORIGIN SHA: the verified download's path on stdout.
fetch() {
	local name=$1 ver=$2 origin=$3 sha=$4 kind=${3%%:*} what=${3#*:}
	local out
	case $kind in
	gomod)
		out=$DL/$name-$ver.zip
		if [ ! -f "$out" ]; then
			local zip
			zip=$(go mod download -json "$what@$ver" | sed -n 's/^[[:space:]]*"Zip": "\(.*\)",$/\1/p')
			[ -n "$zip" ] || die "go mod download $what@$ver gave no zip"
			cp "$zip" "$out.tmp" && mv "$out.tmp" "$out"
		fi
		;;
	npm)
		out=$DL/$name-$ver.tgz
		if [ ! -f "$out" ]; then
			local tmp
			tmp=$(mktemp -d)
			(cd "$tmp" && npm pack --silent "$what@$ver" >/dev/null)
			mv "$tmp"/*.tgz "$out"
			rm -rf "$tmp"
		fi
		;;
	deb)
		out=$DL/$name-$ver.deb
		if [ ! -f "$out" ]; then
			local tmp
			tmp=$(mktemp -d)
			(cd "$tmp" && apt-get download -q "$what=$ver" >/dev/null)
			mv "$tmp"/*.deb "$out"
			rm -rf "$tmp"
		fi
		;;
	debsrc)
		# debsrc:SOURCE:VERSION:FILE, FILE being the upstream tarball.
		local src=${what%%:*} rest=${what#*:}
		local sver=${rest%%:*} file=${rest#*:}
		out=$DL/$file
		if [ ! -f "$out" ]; then
			apt_src_init
			local tmp
			tmp=$(mktemp -d)
			# The upstream tarball is all that is used: a mirror that lacks
			# Debian's own part of the package fails the command after it.
			(cd "$tmp" && apt_src source --download-only "$src=$sver" >/dev/null) || true
			[ -f "$tmp/$file" ] || die "apt-get source $src=$sver gave no $file"
			mv "$tmp/$file" "$out"
			rm -rf "$tmp"
		fi
		;;
	*) die "unknown origin $origin" ;;
	esac
	verify "$out" "$sha"
	echo "$out"
}

# unpack NAME FILE SUBDIR: the corpus tree, built aside and moved in whole.
unpack() {
	local name=$1 file=$2 sub=$3 dest=$EVAL_CACHE/corpora/$1
	local tmp
	tmp=$(mktemp -d "$EVAL_CACHE/corpora/.$name.XXXXXX")
	mkdir "$tmp/x"
	case $file in
	*.zip) (cd "$tmp/x" && unzip -q "$file") ;;
	*.tgz | *.tar.gz) tar -xzf "$file" -C "$tmp/x" ;;
	*.tar.xz) tar -xJf "$file" -C "$tmp/x" ;;
	*.deb) dpkg-deb -x "$file" "$tmp/x" ;;
	*) die "cannot unpack $file" ;;
	esac
	local root
	case $file in
	*.zip)
		# A module zip holds MODULE@VERSION/ under the module path.
		root=$(dirname "$(find "$tmp/x" -name go.mod -path '*@*' | awk '{ print length, $0 }' | sort -n | head -1 | cut -d' ' -f2-)")
		;;
	*)
		if [ "$sub" = "*" ]; then
			root=$(find "$tmp/x" -mindepth 1 -maxdepth 1 -type d | head -1)
		else
			root=$tmp/x/$sub
		fi
		;;
	esac
	[ -d "$root" ] || die "$name: no $sub in $(basename "$file")"
	mv "$root" "$tmp/tree"
	chmod -R u+w "$tmp/tree"
	prune "$name" "$tmp/tree"
	rm -rf "$tmp/x"
	mv "$tmp/tree" "$dest"
	rmdir "$tmp"
}

# prune NAME DIR: what a download carries that is not the project's source.
# TypeScript packages ship their compiled output (dist/) beside src/; the
# output is not the source a question is about, but package.json, which
# names the package its tests import, is. Python packages share a
# directory with others: only the package's own directory stays.
prune() {
	local name=$1 dir=$2
	case $name in
	immer | mobx) rm -rf "$dir/dist" ;;
	rxjs | query-core | redux-toolkit)
		find "$dir" -mindepth 1 -maxdepth 1 ! -name src ! -name package.json -exec rm -rf {} +
		;;
	koa | axios) rm -rf "$dir/dist" ;;
	requests | click | flask | jinja2 | markdown)
		find "$dir" -mindepth 1 -maxdepth 1 ! -name "$name" -exec rm -rf {} +
		;;
	esac
	# Debian's packaging is not the project's.
	rm -rf "$dir/debian" "$dir/.pc"
}

# scip NAME LANG VERSION ORIGIN: the SCIP index, built on a scratch copy of the
# corpus so that nothing the indexer needs (a tsconfig, module downloads) lands
# in it.
scip() {
	local name=$1 lang=$2 ver=$3 origin=$4 out=$EVAL_CACHE/scip/$1.scip
	case $lang in
	go | ts | js | python) ;;
	*) return 0 ;; # the truth of the others comes from ast-grep
	esac
	if [ -f "$out" ] && [ -z "${FORCE_SCIP:-}" ]; then
		return 0
	fi
	local work
	work=$(mktemp -d)
	cp -r "$EVAL_CACHE/corpora/$name/." "$work/"
	log "$name: building the SCIP index ($lang)"
	case $lang in
	go)
		command -v scip-go >/dev/null || die "scip-go is not on PATH (bash .ci/install-precision.sh)"
		(cd "$work" && GOFLAGS=-mod=mod go mod download && scip-go --quiet --output "$out.tmp")
		;;
	ts)
		command -v scip-typescript >/dev/null || die "scip-typescript is not on PATH (bash .ci/install-precision.sh)"
		# A package's tests import it by its own name (redux-toolkit's
		# `from '@reduxjs/toolkit/query'`), which its repository resolves
		# to src/ through its tsconfig's paths; without them every use
		# there would be untyped, and no reference in the truth.
		local pkg=${origin#npm:}
		cat >"$work/tsconfig.json" <<EOF
{"compilerOptions": {"target": "es2020", "module": "esnext", "moduleResolution": "node",
  "strict": false, "noEmit": true, "skipLibCheck": true, "allowJs": false,
  "experimentalDecorators": true, "lib": ["es2020", "dom"], "baseUrl": ".",
  "paths": {"$pkg": ["src/index.ts"], "$pkg/*": ["src/*/index.ts", "src/*"]}},
 "include": ["src/**/*.ts", "src/**/*.tsx"]}
EOF
		(cd "$work" && scip-typescript index --no-progress-bar --output "$out.tmp" >/dev/null)
		;;
	js)
		command -v scip-typescript >/dev/null || die "scip-typescript is not on PATH (bash .ci/install-precision.sh)"
		cat >"$work/tsconfig.json" <<'EOF'
{"compilerOptions": {"target": "es2020", "module": "commonjs", "allowJs": true, "checkJs": false,
  "noEmit": true, "skipLibCheck": true},
 "include": ["**/*.js", "**/*.cjs", "**/*.mjs"]}
EOF
		(cd "$work" && scip-typescript index --no-progress-bar --output "$out.tmp" >/dev/null)
		;;
	python)
		command -v scip-python >/dev/null || die "scip-python is not on PATH (bash .ci/install-precision.sh)"
		# Without a git checkout scip-python needs the version given, and an
		# empty environment keeps it from indexing the system's packages.
		local envf
		envf=$(mktemp)
		echo '[]' >"$envf"
		(cd "$work" && scip-python index --quiet --project-name "$name" --project-version "${ver%%[-+]*}" \
			--environment "$envf" --output "$out.tmp" >/dev/null)
		rm -f "$envf"

		;;
	esac
	rm -rf "$work"
	[ -s "$out.tmp" ] || die "$name: the indexer wrote no index"
	mv "$out.tmp" "$out"
}

start=$(date +%s)
manifest=$EVAL_CACHE/corpora.tsv.tmp
: >"$manifest"
while IFS=$'\t' read -r name lang ver origin sha sub; do
	[ -n "$name" ] || continue
	if [ -n "$ONLY" ] && [ "${ONLY#*,"$name",}" = "$ONLY" ]; then
		[ -d "$EVAL_CACHE/corpora/$name" ] && printf '%s\t%s\t%s\t%s\n' "$name" "$lang" "$ver" "$origin" >>"$manifest"
		continue
	fi
	if [ ! -d "$EVAL_CACHE/corpora/$name" ]; then
		log "$name: fetching $origin $ver"
		file=$(fetch "$name" "$ver" "$origin" "$sha")
		unpack "$name" "$file" "$sub"
	fi
	scip "$name" "$lang" "$ver" "$origin"
	printf '%s\t%s\t%s\t%s\n' "$name" "$lang" "$ver" "$origin" >>"$manifest"
done <<<"$CORPORA"
mv "$manifest" "$EVAL_CACHE/corpora.tsv"
log "corpora ready in $EVAL_CACHE ($(($(date +%s) - start))s)"
