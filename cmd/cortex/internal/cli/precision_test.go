package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
)

const cliSym = "scip-go gomod example.com/m v1.0.0 `example.com/m`/Héllo()."

// precisionProject writes a Go file with "é" before an identifier and a
// scip-go index of it (UTF-8 byte columns), sources dated before the index.
func precisionProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// "/* é */ func " is 14 bytes, 13 code points; "Héllo" is 6 bytes.
	writeIndexed(t, dir, "m.go", "package m\n\n/* é */ func Héllo() {}\n\nvar _ = Héllo\n", cliSym,
		[]int32{2, 14, 20}, []int32{4, 8, 14})
	acceptIndex(t, dir)
	return dir
}

// acceptIndex vouches for the project's index as the user who made it.
func acceptIndex(t *testing.T, dir string) {
	t.Helper()
	if code, out, errs := run(t, dir, nil, "precision-status", "--accept"); code != ExitOK || !strings.Contains(errs, "accepted the precision index index.scip") {
		t.Fatalf("precision-status --accept: exit %d\n%s%s", code, out, errs)
	}
}

// TestPrecisionForeignIndex: an index nobody here generated or accepted
// (one committed to the repository, say) answers stale and marked
// foreign, with the command that accepts it; once accepted, exact.
func TestPrecisionForeignIndex(t *testing.T) {
	dir := t.TempDir()
	writeIndexed(t, dir, "m.go", "package m\n\n/* é */ func Héllo() {}\n\nvar _ = Héllo\n", cliSym,
		[]int32{2, 14, 20}, []int32{4, 8, 14})
	code, stdout, stderr := run(t, dir, nil, "def", "m.go:5:9", "--json")
	var out struct {
		Records []evidence.Record `json:"records"`
	}
	if code != ExitOK || json.Unmarshal([]byte(stdout), &out) != nil || len(out.Records) != 1 {
		t.Fatalf("def: exit %d\n%s%s", code, stdout, stderr)
	}
	// The syntax's fresh definition comes first; the foreign index's,
	// stale and marked, is kept beneath it. Without cgo there is no
	// syntax, and the foreign record stands alone, still marked.
	foreign := out.Records[0]
	if cgoBuild {
		r := out.Records[0]
		if r.Exact || r.Trust != trust.Structural || len(r.Metadata.Superseded) != 1 {
			t.Fatalf("the first record: %+v", r)
		}
		foreign = r.Metadata.Superseded[0]
	}
	if s := foreign; s.Exact || !s.Stale || s.Metadata.Attributes["index_origin"] != "foreign" {
		t.Errorf("a foreign index's record: %+v", s)
	}
	code, stdout, _ = run(t, dir, nil, "precision-status")
	if code != ExitFail || !strings.Contains(stdout, "was not generated or accepted by this user's cortex") ||
		!strings.Contains(stdout, "cortex precision-status --accept") {
		t.Errorf("precision-status of a foreign index (exit %d):\n%s", code, stdout)
	}
	if code, _, errs := run(t, dir, nil, "precision-status", "--accept"); code != ExitOK {
		t.Fatalf("accept: exit %d: %s", code, errs)
	}
	code, stdout, _ = run(t, dir, nil, "def", "m.go:5:9")
	if code != ExitOK || !strings.Contains(stdout, "\texact") {
		t.Errorf("def after accepting: exit %d\n%s", code, stdout)
	}
}

// writeIndexed writes a Go source dated an hour ago and a scip-go index
// of it at index.scip: sym is defined at def and read at each of refs.
func writeIndexed(t *testing.T, dir, name, src, sym string, def []int32, refs ...[]int32) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(p, old, old)
	occs := []*scip.Occurrence{{Range: def, Symbol: sym, SymbolRoles: int32(scip.SymbolRole_Definition)}}
	for _, r := range refs {
		occs = append(occs, &scip.Occurrence{Range: r, Symbol: sym, SymbolRoles: int32(scip.SymbolRole_ReadAccess)})
	}
	ix := &scip.Index{
		Metadata:  &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go", Version: "0.1.26"}},
		Documents: []*scip.Document{{RelativePath: name, Occurrences: occs}},
	}
	b, err := proto.Marshal(ix)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.scip"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDefCommand(t *testing.T) {
	dir := precisionProject(t)
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		inStderr string
	}{
		{"definition from the reference", []string{"def", "m.go:5:9"}, ExitOK,
			"m.go:3:14-3:19\texact\tm.Héllo\n", ""},
		{"references from the definition, declaration marked", []string{"refs", "m.go:3:14"}, ExitOK,
			// The name is not repeated on the line below.
			"m.go:3:14-3:19\texact\tm.Héllo\t(declaration)\nm.go:5:9-5:14\texact\n", ""},
		{"references without the declaration", []string{"refs", "--no-declaration", "m.go:3:14"}, ExitOK,
			"m.go:5:9-5:14\texact\tm.Héllo\n", ""},
		{"end column belongs to the next token", []string{"def", "m.go:3:19"}, ExitFail, "", "no results"},
		{"no implementations", []string{"impl", "m.go:3:14"}, ExitFail, "", "no results"},
		{"bad position", []string{"def", "m.go:x:1"}, ExitUsage, "", "LINE and COL positive integers"},
		{"missing argument", []string{"def"}, ExitUsage, "", "usage: cortex def"},
		{"outside the root", []string{"def", "../x.go:1:1"}, ExitUsage, "", "outside the root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, dir, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if diff := cmp.Diff(tt.stdout, stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if !strings.Contains(stderr, tt.inStderr) {
				t.Errorf("stderr %q does not mention %q", stderr, tt.inStderr)
			}
		})
	}
}

func TestDefJSON(t *testing.T) {
	dir := precisionProject(t)
	code, stdout, _ := run(t, dir, nil, "def", "--json", "m.go:5:10")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var out struct {
		Records []evidence.Record `json:"records"`
		Reports []evidence.Report `json:"reports"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Records) != 1 {
		t.Fatalf("records = %+v", out.Records)
	}
	r := out.Records[0]
	if err := r.Validate(); err != nil {
		t.Error(err)
	}
	if r.Location() != "m.go:3:14-3:19" || !r.Exact || r.Provenance != "precision-index" || r.Metadata.Attributes["encoding"] != "utf-8" {
		t.Errorf("record = %+v", r)
	}
}

func TestPrecisionStatusAndDoctor(t *testing.T) {
	dir := precisionProject(t)
	code, stdout, _ := run(t, dir, nil, "precision-status", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stdout)
	}
	var st struct {
		State     string `json:"state"`
		IndexPath string `json:"index_path"`
		Metadata  struct{ Tool string }
		Stats     struct{ Documents, Occurrences int }
		Staleness struct {
			Stale   bool
			Checked int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "available" || st.IndexPath != "index.scip" || st.Metadata.Tool != "scip-go" ||
		st.Stats.Documents != 1 || st.Stats.Occurrences != 2 || st.Staleness.Stale || st.Staleness.Checked != 1 {
		t.Errorf("status = %+v", st)
	}
	_, stdout, _ = run(t, dir, nil, "doctor")
	if !strings.Contains(stdout, "precision intelligence   available") {
		t.Errorf("doctor:\n%s", stdout)
	}

	// Stale: results still come, marked stale, with the reindex command.
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "m.go"), later, later)
	code, stdout, _ = run(t, dir, nil, "precision-status")
	if code != ExitFail || !strings.Contains(stdout, "stale — 1 of 1 indexed documents changed") ||
		!strings.Contains(stdout, "→ run: cortex index --precision") {
		t.Errorf("stale status (exit %d):\n%s", code, stdout)
	}
	code, stdout, stderr := run(t, dir, nil, "def", "m.go:5:9")
	// The stale index's answer is superseded by the syntax's fresh one;
	// without cgo, it is the answer, marked stale.
	wantDef := "m.go:3:14-3:19\tstructural\tm.Héllo\n"
	if !cgoBuild {
		wantDef = "m.go:3:14-3:19\tinferred_high (stale)\tm.Héllo\n"
	}
	if code != ExitOK || stdout != wantDef || !strings.Contains(stderr, "→ run: scip-go --output index.scip") {
		t.Errorf("stale def (exit %d):\n%s\n%s", code, stdout, stderr)
	}
	_, stdout, _ = run(t, dir, nil, "doctor")
	if !strings.Contains(stdout, "precision intelligence   stale") {
		t.Errorf("doctor:\n%s", stdout)
	}

	// Unavailable: a truncated index.
	os.WriteFile(filepath.Join(dir, "index.scip"), []byte{0x0a, 0x40, 1}, 0o644)
	// The name written at the position is looked up instead, and both
	// are said.
	code, stdout, stderr = run(t, dir, nil, "def", "m.go:5:9")
	if !strings.Contains(stderr, "precision: unavailable — precision index index.scip is unusable") {
		t.Errorf("corrupt def (exit %d): %s%s", code, stdout, stderr)
	}
	if cgoBuild && (code != ExitOK || stdout != "m.go:3:14-3:19\tstructural\tm.Héllo\n" ||
		!strings.Contains(stderr, `"Héllo", the name written there, was looked up by name`)) {
		t.Errorf("corrupt def (exit %d): %s%s", code, stdout, stderr)
	}
	_, stdout, _ = run(t, dir, nil, "doctor")
	if !strings.Contains(stdout, "precision intelligence   unavailable — precision index index.scip is unusable") {
		t.Errorf("doctor:\n%s", stdout)
	}

	// Disabled by configuration.
	os.MkdirAll(filepath.Join(dir, ".codecortex"), 0o755)
	os.WriteFile(filepath.Join(dir, ".codecortex/config.json"), []byte(`{"precision_index":{"enabled":false}}`), 0o644)
	_, stdout, _ = run(t, dir, nil, "doctor")
	if !strings.Contains(stdout, "precision intelligence   disabled") {
		t.Errorf("doctor:\n%s", stdout)
	}
	// A layer that is off by choice is said only with -v when another
	// answered; a layer that is unavailable is said always (above).
	if cgoBuild {
		for _, verbose := range []bool{false, true} {
			args := []string{"def", "m.go:5:9"}
			if verbose {
				args = append(args, "-v")
			}
			code, stdout, stderr = run(t, dir, nil, args...)
			if said := strings.Contains(stderr, "precision: disabled"); code != ExitOK || said != verbose {
				t.Errorf("cortex %q (exit %d): the disabled layer said %v, want %v:\n%s%s", args, code, said, verbose, stdout, stderr)
			}
		}
	}
}

func TestDefFallsBackToLanguageServer(t *testing.T) {
	testtool.Require(t, "gopls", "bash .ci/install-precision.sh")
	dir := precisionProject(t)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	os.Remove(filepath.Join(dir, "index.scip"))
	// A generous wait: gopls starts slowly on a machine busy with the rest
	// of the tests.
	writeConfig(t, dir, `{"precision_index": {"language_server_timeout_seconds": 60}}`)
	code, stdout, stderr := run(t, dir, nil, "def", "--lsp", "m.go:5:9")
	if code != ExitOK || stdout != "m.go:3:14-3:19\tnear_exact\n" {
		t.Errorf("def --lsp without an index (exit %d):\n%q\n%s", code, stdout, stderr)
	}
}

// def, refs and impl take a symbol name instead of a position.
func TestDefByName(t *testing.T) {
	dir := oldAPIProject(t)
	tests := []struct {
		args     []string
		code     int
		stdout   string
		inStderr string
	}{
		{[]string{"def", "OldAPI"}, ExitOK, "m.go:3:6-3:12\texact\tm.OldAPI\n", ""},
		{[]string{"refs", "OldAPI", "--no-declaration"}, ExitOK, "m.go:6:22-6:28\texact\tm.OldAPI\n", ""},
		{[]string{"def", "m.OldAPI"}, ExitOK, "m.go:3:6-3:12\texact\tm.OldAPI\n", ""},
		{[]string{"def", "NoSuchName"}, ExitFail, "", "no symbol named"},
	}
	for _, tt := range tests {
		code, stdout, stderr := run(t, dir, nil, tt.args...)
		if code != tt.code {
			t.Errorf("cortex %q: exit %d, want %d (stderr %q)", tt.args, code, tt.code, stderr)
		}
		if diff := cmp.Diff(tt.stdout, stdout); diff != "" {
			t.Errorf("cortex %q: stdout (-want +got):\n%s", tt.args, diff)
		}
		if !strings.Contains(stderr, tt.inStderr) {
			t.Errorf("cortex %q: stderr %q does not mention %q", tt.args, stderr, tt.inStderr)
		}
	}
}

// A position that names nothing in the project is the asker's mistake:
// exit 2 with the reason, never "no results" or the whole file.
func TestPositionPastTheFile(t *testing.T) {
	dir := precisionProject(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"def", "nosuch.go:1:1"}, "no such file in the project"},
		{[]string{"refs", "m.go:99:1"}, "the file has 5 lines"},
		{[]string{"impl", "m.go:3:500"}, "line 3 has 23 characters"},
		{[]string{"def", "m.go:0:1"}, "want FILE:LINE:COL"},
	} {
		code, out, errs := run(t, dir, nil, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
}
