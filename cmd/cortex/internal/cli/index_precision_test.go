package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"

	"github.com/codecortex/codecortex/internal/testtool"
)

func TestDetectLanguages(t *testing.T) {
	file := &fstest.MapFile{Data: []byte("x\n")}
	tests := []struct {
		name  string
		files []string
		want  []string // language, with "+infer" for an inferred tsconfig
	}{
		{"go", []string{"go.mod", "main.go"}, []string{"go"}},
		{"typescript", []string{"tsconfig.json"}, []string{"typescript"}},
		{"javascript with a package.json", []string{"package.json", "src/app.js"}, []string{"typescript+infer"}},
		{"jsconfig", []string{"jsconfig.json"}, []string{"typescript+infer"}},
		{"a package.json for tools only", []string{"package.json", "go.mod"}, []string{"go"}},
		{"sources only in node_modules", []string{"package.json", "node_modules/x/index.js"}, nil},
		{"python", []string{"requirements.txt", "app/main.py"}, []string{"python"}},
		{"python sources in a hidden directory only", []string{"pyproject.toml", ".venv/lib/site.py"}, nil},
		{"python without a project file", []string{"script.py"}, nil},
		{"all three", []string{"go.mod", "tsconfig.json", "pyproject.toml", "tools/gen.py"}, []string{"go", "typescript", "python"}},
		{"nothing", []string{"README.md"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tt.files {
				fsys[f] = file
			}
			var got []string
			for _, l := range detectLanguages(fsys) {
				s := l.indexer.language
				if l.infer {
					s += "+infer"
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("languages (-want +got):\n%s", diff)
			}
		})
	}
}

// The install commands cortex prints are those CI runs: the versions
// .ci/install-precision.sh pins.
func TestInstallCommandsMatchCI(t *testing.T) {
	b, err := os.ReadFile("../../../../.ci/install-precision.sh")
	if err != nil {
		t.Fatal(err)
	}
	pinned := func(v string) string {
		m := regexp.MustCompile(`(?m)^` + v + `=(\S+)$`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s not found in .ci/install-precision.sh", v)
		}
		return string(m[1])
	}
	want := map[string]string{
		"go":         "go install github.com/sourcegraph/scip-go/cmd/scip-go@" + pinned("SCIP_GO_VERSION"),
		"typescript": "npm install -g @sourcegraph/scip-typescript@" + pinned("SCIP_TS_VERSION"),
		"python":     "npm install -g @sourcegraph/scip-python@" + pinned("SCIP_PY_VERSION"),
	}
	got := map[string]string{}
	for _, ix := range scipIndexers {
		got[ix.language] = ix.install
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("install commands (-want +got):\n%s", diff)
	}
}

// fakeIndexer puts on PATH a program called tool that copies the index
// ix to the path after --output, as the real indexers write theirs; with
// fail set it fails instead, saying so on standard error.
func fakeIndexer(t *testing.T, bin, tool string, ix *scip.Index, fail bool) {
	t.Helper()
	prepared := filepath.Join(t.TempDir(), tool+".scip")
	b, err := proto.Marshal(ix)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prepared, b, 0o644); err != nil {
		t.Fatal(err)
	}
	body := `while [ $# -gt 0 ]; do if [ "$1" = --output ]; then shift; out=$1; fi; shift; done
cp ` + prepared + ` "$out"`
	if fail {
		body = "echo 'boom: the indexer broke' >&2; exit 3"
	}
	if err := os.WriteFile(filepath.Join(bin, tool), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A Go file and a TypeScript file, each with a character before its
// identifier that its indexer counts differently from code points: "é"
// is two UTF-8 bytes, "😀" two UTF-16 code units; the sources are dated
// before the indexes are made.
const (
	goSrc = "package m\n\n/* é */ func Héllo() {}\n\nvar _ = Héllo\n"
	goSym = "scip-go gomod example.com/m v1.0.0 `example.com/m`/Héllo()."
	tsSrc = "/* 😀 */ export function greet() {}\ngreet()\n"
	tsSym = "scip-typescript npm m 1.0.0 `a.ts`/greet()."
)

func goIndex() *scip.Index {
	return &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go", Version: "0.1.26"}},
		Documents: []*scip.Document{{RelativePath: "m.go", Occurrences: []*scip.Occurrence{
			{Range: []int32{2, 14, 20}, Symbol: goSym, SymbolRoles: int32(scip.SymbolRole_Definition)},
			{Range: []int32{4, 8, 14}, Symbol: goSym, SymbolRoles: int32(scip.SymbolRole_ReadAccess)},
		}}},
	}
}

func tsIndex() *scip.Index {
	// "/* 😀 */ export function " is 24 code points and 25 UTF-16 units.
	return &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-typescript", Version: "0.4.0"}},
		Documents: []*scip.Document{{RelativePath: "a.ts", Occurrences: []*scip.Occurrence{
			{Range: []int32{0, 25, 30}, Symbol: tsSym, SymbolRoles: int32(scip.SymbolRole_Definition)},
			{Range: []int32{1, 0, 5}, Symbol: tsSym},
		}}},
		ExternalSymbols: []*scip.SymbolInformation{{Symbol: "scip-typescript npm typescript 5.0.0 lib/`lib.d.ts`/Array#"}},
	}
}

// mixedProject writes a Go and TypeScript project with sources an hour
// old.
func mixedProject(t *testing.T) string {
	t.Helper()
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": goSrc,
		"tsconfig.json": "{}\n", "a.ts": tsSrc,
	})
	ageSources(t, dir)
	return dir
}

func timeAgo() time.Time { return time.Now().Add(-time.Hour) }

func ageSources(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []string{"m.go", "a.ts"} {
		if err := os.Chtimes(filepath.Join(dir, f), timeAgo(), timeAgo()); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// cortex index --precision runs each language's indexer, merges their
// indexes with each document's encoding declared, writes the result where
// cortex reads it and accepts it: the answers are exact, at the right
// columns, in both languages.
func TestIndexPrecision(t *testing.T) {
	bin := t.TempDir()
	fakeIndexer(t, bin, "scip-go", goIndex(), false)
	fakeIndexer(t, bin, "scip-typescript", tsIndex(), false)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin"+string(os.PathListSeparator)+"/bin")

	dir := mixedProject(t)
	code, out, errs := run(t, dir, nil, "index", "--precision", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var got precisionIndexJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, r := range got.Indexers {
		ran = append(ran, r.Language+" "+r.Tool+" "+r.Version)
	}
	if diff := cmp.Diff([]string{"go scip-go 0.1.26", "typescript scip-typescript 0.4.0"}, ran); diff != "" {
		t.Errorf("indexers (-want +got):\n%s", diff)
	}
	wantEnc := map[string]int{"utf-8 (declared)": 1, "utf-16 (declared)": 1}
	if got.IndexPath != ".codecortex/precision/index.cortexidx" || got.Status.State != "available" ||
		got.Status.Stats.Documents != 2 || !cmp.Equal(wantEnc, got.Status.Stats.Encodings) {
		t.Errorf("index %s, status %+v", got.IndexPath, got.Status)
	}
	for _, tt := range []struct{ at, want string }{
		{"m.go:5:9", "m.go:3:14-3:19\texact\tm.Héllo\n"},
		{"a.ts:2:1", "a.ts:1:25-1:30\texact\ta.greet\n"},
	} {
		code, out, errs := run(t, dir, nil, "def", tt.at)
		if diff := cmp.Diff(tt.want, out); code != ExitOK || diff != "" {
			t.Errorf("def %s: exit %d (-want +got):\n%s%s", tt.at, code, diff, errs)
		}
	}
	if code, out, _ := run(t, dir, nil, "precision-status"); code != ExitOK || !strings.Contains(out, "indexer        cortex "+Version) {
		t.Errorf("precision-status: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, dir, nil, "doctor", "--json"); code != doctorExit(ExitOK) || strings.Contains(out, `"layer": "precision intelligence",
      "state": "unavailable"`) {
		t.Errorf("doctor: exit %d\n%s", code, out)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".codecortex/precision/.*generating")); len(entries) > 0 {
		t.Errorf("temporary indexes left behind: %v", entries)
	}

	// One language: its indexer's own index, as it wrote it.
	code, out, errs = run(t, dir, nil, "index", "--precision", "--lang", "typescript")
	if code != ExitOK || !strings.Contains(out, "typescript  scip-typescript 0.4.0: 1 document in") ||
		!strings.Contains(out, "index       .codecortex/precision/index.cortexidx, accepted as yours") {
		t.Fatalf("--lang typescript: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ = run(t, dir, nil, "precision-status", "--json")
	if !strings.Contains(out, `"tool": "scip-typescript"`) || !strings.Contains(out, `"utf-16 (measured)": 1`) {
		t.Errorf("a single index is not the indexer's own:\n%s", out)
	}

	// A configured path is where the index goes.
	writeConfig(t, dir, `{"precision_index": {"path": "build/cortex.scip"}}`)
	if code, out, errs := run(t, dir, nil, "index", "--precision", "--lang", "go"); code != ExitOK || !strings.Contains(out, "build/cortex.scip") {
		t.Errorf("configured path: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := run(t, dir, nil, "def", "m.go:5:9"); code != ExitOK || !strings.Contains(out, "\texact\t") {
		t.Errorf("def from the configured path: exit %d\n%s", code, out)
	}
}

// An indexer that fails leaves the index that was there, and says why.
func TestIndexPrecisionIndexerFails(t *testing.T) {
	bin := t.TempDir()
	fakeIndexer(t, bin, "scip-go", goIndex(), false)
	fakeIndexer(t, bin, "scip-typescript", tsIndex(), true)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin"+string(os.PathListSeparator)+"/bin")
	dir := mixedProject(t)
	if code, _, errs := run(t, dir, nil, "index", "--precision", "--lang", "go"); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	before, err := os.ReadFile(filepath.Join(dir, ".codecortex/precision/index.cortexidx"))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, dir, nil, "index", "--precision")
	if code != ExitFail || !strings.Contains(errs, "scip-typescript failed") || !strings.Contains(errs, "boom: the indexer broke") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	after, _ := os.ReadFile(filepath.Join(dir, ".codecortex/precision/index.cortexidx"))
	if string(before) != string(after) {
		t.Error("a failed run replaced the index")
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".codecortex/precision/.*generating")); len(entries) > 0 {
		t.Errorf("temporary indexes left behind: %v", entries)
	}
}

// A missing indexer is named with the exact command that installs it,
// before anything runs; the exit code is 1.
func TestIndexPrecisionMissingIndexer(t *testing.T) {
	bin := t.TempDir()
	fakeIndexer(t, bin, "scip-go", goIndex(), false)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin"+string(os.PathListSeparator)+"/bin")
	dir := mixedProject(t)
	code, out, errs := run(t, dir, nil, "index", "--precision")
	if code != ExitFail || out != "" ||
		!strings.Contains(errs, "scip-typescript indexes typescript and is not installed; install it with:\n  npm install -g @sourcegraph/scip-typescript@0.4.0\n") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, ".codecortex/precision/index.cortexidx")); err == nil {
		t.Error("an index was written although an indexer was missing")
	}
	code, out, _ = run(t, dir, nil, "index", "--precision", "--json")
	var doc errorJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitFail || !strings.Contains(doc.Error.Message, "npm install -g @sourcegraph/scip-typescript@0.4.0") {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}

func TestIndexPrecisionUsage(t *testing.T) {
	dir := mixedProject(t)
	empty := t.TempDir()
	for _, tt := range []struct {
		dir  string
		args []string
		code int
		msg  string
	}{
		{dir, []string{"--precision", "--status"}, ExitUsage, "exclude each other"},
		{dir, []string{"--lang", "go"}, ExitUsage, "--lang goes with --precision"},
		{dir, []string{"--precision", "--lang", "cobol"}, ExitUsage, `--lang "cobol": want go, typescript, python`},
		{empty, []string{"--precision"}, ExitFail, "found no project a SCIP indexer reads"},
	} {
		code, _, errs := run(t, tt.dir, nil, append([]string{"index"}, tt.args...)...)
		if code != tt.code || !strings.Contains(errs, tt.msg) {
			t.Errorf("index %q: exit %d, want %d and %q\n%s", tt.args, code, tt.code, tt.msg, errs)
		}
	}
	writeConfig(t, dir, `{"precision_index": {"enabled": false}}`)
	if code, _, errs := run(t, dir, nil, "index", "--precision"); code != ExitFail || !strings.Contains(errs, "precision_index.enabled is false") {
		t.Errorf("disabled: exit %d\n%s", code, errs)
	}
}

// With the real indexers: the README's step works as written.
func TestIndexPrecisionRealIndexers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs scip-go and scip-typescript")
	}
	testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	testtool.Require(t, "scip-typescript", "bash .ci/install-precision.sh")
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": goSrc,
		"tsconfig.json": "{}\n", "a.ts": tsSrc,
	})
	ageSources(t, dir)
	code, out, errs := run(t, dir, nil, "index", "--precision")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, tt := range []struct{ at, want string }{
		{"m.go:5:9", "m.go:3:14-3:19\texact\t"},
		{"a.ts:2:1", "a.ts:1:25-1:30\texact\t"},
	} {
		if code, out, errs := run(t, dir, nil, "def", tt.at); code != ExitOK || !strings.HasPrefix(out, tt.want) {
			t.Errorf("def %s: exit %d, want %q\n%s%s", tt.at, code, tt.want, out, errs)
		}
	}
}
