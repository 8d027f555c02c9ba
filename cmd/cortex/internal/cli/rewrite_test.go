package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/seal"
)

const rewriteMain = "package main\n\nfunc main() {\n\tprintln(old(1))\n}\n\nfunc old(x int) int { return x }\n\nfunc neu(x int) int { return x }\n"

func TestRewriteCommands(t *testing.T) {
	if !cgoBuild {
		t.Skip("the built-in engine needs cgo")
	}
	dir := testtool.WriteTree(t, map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n", "main.go": rewriteMain})
	env := map[string]string{"CODECORTEX_AUTHOR": "ada"}

	// Usage errors: exit 2, nothing written.
	for _, args := range [][]string{
		{"rewrite"},
		{"rewrite", "frobnicate"},
		{"rewrite", "preview", "-r", "neu($X)", "-l", "go"},
		{"rewrite", "preview", "-p", "old($X)", "-r", "neu($X)"},
		{"rewrite", "preview", "-p", "old(", "-r", "neu($X)", "-l", "go"},
		{"rewrite", "preview", "-p", "old($X)", "-r", "neu($Y)", "-l", "go"},
		{"rewrite", "preview", "-p", "old($X)", "-r", "neu($X)", "-l", "go", "../outside"},
		{"rewrite", "show", "nonsense"},
		{"rewrite", "apply", "0123456789abcdef01234567", "--yes"},
		{"rewrite", "show", "0123456789abcdef01234567", "--yes"},
	} {
		if code, out, errs := run(t, dir, env, args...); code != ExitUsage {
			t.Errorf("%q: exit %d, want 2\n%s%s", args, code, out, errs)
		}
	}

	code, out, errs := run(t, dir, env, "rewrite", "preview", "-p", "old($X)", "-r", "neu($X)", "-l", "go")
	if code != ExitOK {
		t.Fatalf("preview: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"-\tprintln(old(1))\n+\tprintln(neu(1))\n", "1 match in 1 file", "impact: risk", "apply it with: cortex rewrite apply "} {
		if !strings.Contains(out, want) {
			t.Errorf("preview output lacks %q:\n%s", want, out)
		}
	}
	id := regexp.MustCompile(`apply ([0-9a-f]{24}) --yes`).FindStringSubmatch(out)[1]

	code, out, _ = run(t, dir, env, "rewrite", "show", id, "--json")
	var shown struct {
		ID      string `json:"id"`
		Expired bool   `json:"expired"`
		Files   []struct {
			Diff string `json:"diff"`
		} `json:"files"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &shown) != nil || shown.ID != id || shown.Expired || len(shown.Files) != 1 {
		t.Fatalf("show --json: exit %d\n%s", code, out)
	}

	// Without --yes, nothing happens.
	if code, _, errs := run(t, dir, env, "rewrite", "apply", id); code != ExitUsage || !strings.Contains(errs, "--yes to authorize it as ada") {
		t.Errorf("apply without --yes: exit %d\n%s", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != rewriteMain {
		t.Fatalf("apply without --yes changed main.go")
	}

	code, out, errs = run(t, dir, env, "rewrite", "apply", id, "--yes", "--no-validate", "--json")
	var res rewrite.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != ExitOK {
		t.Fatalf("apply: exit %d %v\n%s%s", code, err, out, errs)
	}
	if res.Outcome != rewrite.Applied || res.Principal != "ada" || res.FilesChanged != 1 || res.Validation.Status != rewrite.ValidationSkipped {
		t.Errorf("apply result %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(b), "println(neu(1))") {
		t.Errorf("main.go after apply:\n%s", b)
	}
	// A second apply of the same preview is refused: exit 1.
	if code, _, errs := run(t, dir, env, "rewrite", "apply", id, "--yes"); code != ExitFail || !strings.Contains(errs, "after the preview") {
		t.Errorf("second apply: exit %d\n%s", code, errs)
	}
	if code, out, _ := run(t, dir, env, "rewrite", "recover"); code != ExitOK || !strings.Contains(out, "nothing to recover") {
		t.Errorf("recover: exit %d\n%s", code, out)
	}
}

func TestRewriteApplyDisabled(t *testing.T) {
	if !cgoBuild {
		t.Skip("the built-in engine needs cgo")
	}
	dir := testtool.WriteTree(t, map[string]string{"main.go": rewriteMain})
	writeConfig(t, dir, `{"structural": {"allow_apply": false}}`)
	code, out, errs := run(t, dir, nil, "rewrite", "preview", "-p", "old($X)", "-r", "neu($X)", "-l", "go")
	if code != ExitOK {
		t.Fatalf("preview: exit %d\n%s%s", code, out, errs)
	}
	id := regexp.MustCompile(`apply ([0-9a-f]{24}) --yes`).FindStringSubmatch(out)[1]
	code, _, errs = run(t, dir, nil, "rewrite", "apply", id, "--yes")
	if code != ExitFail || !strings.Contains(errs, "allow_apply is false") {
		t.Errorf("apply with allow_apply false: exit %d\n%s", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != rewriteMain {
		t.Errorf("main.go changed")
	}
}

// TestRewriteRecover leaves, by hand and in the documented format, the
// journal of an apply that died after renaming its first file of two,
// and recovers it with cortex rewrite recover: both files old again.
func TestRewriteRecover(t *testing.T) {
	oldA, newA, oldB := "a old\n", "a new\n", "b old\n"
	dir := testtool.WriteTree(t, map[string]string{"a.txt": newA, "b.txt": oldB})
	txid := "00112233445566778899aabb"
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	jd := filepath.Join(dir, filepath.FromSlash(rewrite.JournalDir), txid)
	if err := os.MkdirAll(jd, 0o700); err != nil {
		t.Fatal(err)
	}
	// The journal as the documented format writes it, sealed with the
	// user's key (the one TestMain's configuration directory holds), as
	// the cortex that made it would have.
	body := fmt.Sprintf(`{"format":%q,"tx_id":%q,"preview_id":"ffeeddccbbaa998877665544","principal":"ada","started":"2026-01-01T00:00:00Z",`+
		`"files":[`+
		`{"path":"a.txt","temp":".cortex-rewrite-%s-0","mode":420,"before":%q,"after":%q,"offset":0,"size":%d},`+
		`{"path":"b.txt","temp":".cortex-rewrite-%s-1","mode":420,"before":%q,"after":%q,"offset":%d,"size":%d}],`,
		rewrite.JournalFormat, txid, txid, sum(oldA), sum(newA), len(oldA), txid, sum(oldB), sum("b new\n"), len(oldA), len(oldB))
	sl, err := seal.User().Seal("codecortex.rewrite.journal/1", []byte(body+`"seal":""}`))
	if err != nil {
		t.Fatal(err)
	}
	doc := body + `"seal":"` + sl + `"}`
	for name, content := range map[string]string{"journal.json": doc, "originals": oldA + oldB} {
		if err := os.WriteFile(filepath.Join(jd, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// b.txt's replacement was written, not yet renamed.
	if err := os.WriteFile(filepath.Join(dir, ".cortex-rewrite-"+txid+"-1"), []byte("b new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, nil, "rewrite", "recover", "--json")
	var got struct {
		Recovered []rewrite.Recovery `json:"recovered"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Recovered) != 1 {
		t.Fatalf("recover: exit %d\n%s%s", code, out, errs)
	}
	rec := got.Recovered[0]
	if rec.Outcome != rewrite.RolledBack || rec.TxID != txid || len(rec.Restored) != 1 || rec.Restored[0] != "a.txt" {
		t.Errorf("recovery %+v", rec)
	}
	for name, want := range map[string]string{"a.txt": oldA, "b.txt": oldB} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("%s = %q, want %q", name, b, want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 { // a.txt, b.txt, .codecortex
		t.Errorf("left in the root: %v", ents)
	}
}

// TestRewriteForeignJournal: the same journal shipped with the repository
// (no seal of this user's) is recovered by nothing: not by the read-only
// rewrite show, not by rewrite recover. Both say where it is and how to
// remove it, and the files keep what they hold.
func TestRewriteForeignJournal(t *testing.T) {
	planted, tracked := "package main // planted\n", "package main\n"
	dir := testtool.WriteTree(t, map[string]string{"main.go": tracked})
	txid := "00112233445566778899aabb"
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	jd := filepath.Join(dir, filepath.FromSlash(rewrite.JournalDir), txid)
	if err := os.MkdirAll(jd, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := fmt.Sprintf(`{"format":%q,"tx_id":%q,"preview_id":"ffeeddccbbaa998877665544","principal":"security-team","started":"2026-01-01T00:00:00Z",`+
		`"files":[{"path":"main.go","temp":".cortex-rewrite-%s-0","mode":420,"before":%q,"after":%q,"offset":0,"size":%d}],"seal":""}`,
		rewrite.JournalFormat, txid, txid, sum(planted), sum(tracked), len(planted))
	for name, content := range map[string]string{"journal.json": doc, "originals": planted, "committed": txid + "\n"} {
		if err := os.WriteFile(filepath.Join(jd, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	remove := "rm -r -- .codecortex/rewrite/journal/" + txid
	code, out, errs := run(t, dir, nil, "rewrite", "show", "ffeeddccbbaa998877665544")
	if code != ExitUsage || !strings.Contains(errs, remove) {
		t.Errorf("rewrite show: exit %d, want 2 and the journal reported with %q\n%s%s", code, remove, out, errs)
	}
	code, out, errs = run(t, dir, nil, "rewrite", "recover")
	if code != ExitOK || !strings.Contains(out, "did not recover .codecortex/rewrite/journal/"+txid) || !strings.Contains(out, remove) {
		t.Errorf("rewrite recover: exit %d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != tracked {
		t.Errorf("main.go = %q: a foreign journal was recovered", b)
	}
}
