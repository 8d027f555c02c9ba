# The corpora of the scale curve, sourced by scale-curve.sh and ask-ab.sh
# (WORK set): cobra v1.8.0 and prometheus v0.54.1 from the Go module cache
# (`go mod download`), gosrc a copy of $(go env GOROOT)/src.

moddir() { go mod download -json "$1" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p'; }

# prepare NAME: copies the corpus to $WORK/NAME once, made a git
# repository, its files dated two hours back, as a checkout is (a file
# dated now is read again by the index's freshness check).
prepare() {
	local name=$1 dst=$WORK/$1 src
	[ -d "$dst" ] && return
	case $name in
	cobra) src=$(moddir github.com/spf13/cobra@v1.8.0) ;;
	prometheus) src=$(moddir github.com/prometheus/prometheus@v0.54.1) ;;
	gosrc) src=$(go env GOROOT)/src ;;
	*) echo "unknown corpus $name: want cobra, prometheus or gosrc" >&2; exit 2 ;;
	esac
	cp -r "$src" "$dst"
	chmod -R u+w "$dst"
	(cd "$dst" && git init -q && git add -A && git -c user.name=scale -c user.email=scale@localhost commit -qm corpus)
	find "$dst" -path "$dst/.git" -prune -o -print0 | xargs -0 touch -h -d '2 hours ago'
}

# questions NAME: the questions asked of a corpus, one "kind|question" a line.
questions() {
	local def iface
	case $1 in
	cobra) def=ExecuteC iface=SliceValue ;;
	prometheus) def=NewHead iface=Appender ;;
	gosrc) def=ReadFull iface=Reader ;;
	esac
	printf '%s\n' "definition|where is $def defined?" "callers|who calls $def?" "usages|where is $def used?" \
		"implementations|what implements $iface?" "tests|which tests cover $def?" "impact|what breaks if I change $def?"
}
