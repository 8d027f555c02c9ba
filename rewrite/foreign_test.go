package rewrite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/structural"
)

// plantJournal writes, under dir, the journal of a transaction that
// "replaced" each of files (path → the attacker's original) with what the
// file holds now: exactly what a repository can commit so that a naive
// recovery writes the attacker's content over tracked files.
func plantJournal(t *testing.T, dir, txid, sealValue string, committed bool, files map[string]string) string {
	t.Helper()
	j := journalDoc{Format: JournalFormat, TxID: txid, PreviewID: "76543210fedcba9876543210",
		Principal: "security-team", Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Seal: sealValue}
	var originals []byte
	var names []string
	for name := range files {
		names = append(names, name)
	}
	for _, name := range sortedStrings(names) {
		now, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		j.Files = append(j.Files, journalFile{Path: name, Temp: path.Join(path.Dir(name), tempPrefix+txid+"-0"), Mode: 0o644,
			Before: sha([]byte(files[name])), After: sha(now), Offset: int64(len(originals)), Size: int64(len(files[name]))})
		originals = append(originals, files[name]...)
	}
	jd := filepath.Join(dir, filepath.FromSlash(JournalDir), txid)
	if err := os.MkdirAll(jd, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(j, "", "  ")
	for name, data := range map[string][]byte{journalName: b, originalsName: originals} {
		if err := os.WriteFile(filepath.Join(jd, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if committed {
		if err := os.WriteFile(filepath.Join(jd, committedName), []byte(txid+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path.Join(JournalDir, txid)
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// hostileProject is a project as cloned: a tracked file and a .git/config.
func hostileProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"main.go":         "package main\n\nfunc main() {}\n",
		".git/config":     "[core]\n\trepositoryformatversion = 0\n",
		"sub/.git/config": "[core]\n\tbare = false\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// everything returns every file under dir, .git included, outside
// .codecortex.
func everything(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == ".codecortex" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const payload = "[core]\n\tfsmonitor = \"touch /tmp/cortex-pwned\"\n"

// TestForeignJournalNeverRecovered: a journal shipped with the repository
// — unsealed, sealed with a made-up seal, or sealed under another user's
// key; naming tracked files, .git/config or a nested repository's config;
// marked committed or not — is never recovered: not by opening, showing
// or previewing, not by an explicit Recover, not by the recovery an apply
// runs first. Nothing outside .codecortex changes, and the journal is
// reported with its path and the command that removes it.
func TestForeignJournalNeverRecovered(t *testing.T) {
	otherKey, _ := seal.NewKey(bytes.Repeat([]byte{9}, seal.KeySize))
	tests := []struct {
		name      string
		sealWith  func(j journalDoc) string
		committed bool
		files     map[string]string
	}{
		{"unsealed, a tracked file", nil, false, map[string]string{"main.go": "package main\n// planted\n"}},
		{"unsealed, committed", nil, true, map[string]string{"main.go": "package main\n// planted\n"}},
		{"made-up seal, .git/config", func(journalDoc) string { return "s1." + strings.Repeat("A", 43) }, false,
			map[string]string{".git/config": payload}},
		{"another user's key, nested repository", func(j journalDoc) string {
			s, _ := otherKey.Seal(purposeJournal, j.sealed())
			return s
		}, false, map[string]string{"sub/.git/config": payload, "main.go": "x"}},
		{"another user's key, a tracked file", func(j journalDoc) string {
			s, _ := otherKey.Seal(purposeJournal, j.sealed())
			return s
		}, true, map[string]string{"main.go": "package main\n// planted\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := hostileProject(t)
			const txid = "0123456789abcdef01234567"
			var sealValue string
			if tt.sealWith != nil {
				// The seal is computed over the journal as planted, with
				// its hashes of the files as they are now.
				plantJournal(t, dir, txid, "", tt.committed, tt.files)
				b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(JournalDir), txid, journalName))
				var j journalDoc
				if err := json.Unmarshal(b, &j); err != nil {
					t.Fatal(err)
				}
				sealValue = tt.sealWith(j)
			}
			jdir := plantJournal(t, dir, txid, sealValue, tt.committed, tt.files)
			before := everything(t, dir)

			r := openTest(t, dir, nil)
			pend := r.Pending()
			if len(pend) != 1 || !pend[0].Foreign || pend[0].Journal != jdir || !strings.Contains(pend[0].Remove, "rm -r -- "+jdir) {
				t.Errorf("Pending = %+v, want the journal, foreign, with the command that removes it", pend)
			}
			_, _ = r.Show("fedcba9876543210fedcba98")
			recs, err := r.Recover(context.Background())
			if err != nil {
				t.Fatalf("Recover: %v", err)
			}
			if len(recs) != 1 || recs[0].Outcome != Foreign || recs[0].Journal != jdir ||
				len(recs[0].Notes) != 1 || !strings.Contains(recs[0].Notes[0], "rm -r -- "+jdir) {
				t.Errorf("Recover = %+v, want the journal reported as foreign with its removal", recs)
			}
			// An apply of the user's own preview goes on, and its own
			// recovery leaves the foreign journal alone.
			p, err := r.PreviewEdits(context.Background(), "mine", []structural.Edit{{Path: "main.go", StartByte: 0, EndByte: 7, Old: "package", New: "package"}})
			if err == nil {
				t.Fatalf("an edit that changes nothing made a preview %s", p.ID)
			}
			if got := everything(t, dir); !equalMaps(got, before) {
				t.Errorf("files outside .codecortex changed:\nbefore %q\nafter  %q", before, got)
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(jdir), journalName)); err != nil {
				t.Errorf("the foreign journal was moved or removed: %v", err)
			}
			if _, err := os.Stat("/tmp/cortex-pwned"); err == nil {
				t.Error("the payload ran")
			}
		})
	}
}

// TestForeignJournalApplyGoesOn: a foreign journal does not hold up the
// user's own applies, and the apply's own recovery leaves it alone.
func TestForeignJournalApplyGoesOn(t *testing.T) {
	dir := hostileProject(t)
	jdir := plantJournal(t, dir, "0123456789abcdef01234567", "", false, map[string]string{"main.go": "planted\n"})
	r := openTest(t, dir, nil)
	p, err := r.PreviewEdits(context.Background(), "mine", []structural.Edit{{Path: "main.go", StartByte: 0, EndByte: 7, Old: "package", New: "package"}, {Path: "main.go", StartByte: 14, EndByte: 18, Old: "func", New: "func "}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Apply(context.Background(), p.ID, Authorization{Principal: "me"})
	if err != nil || res.Outcome != Applied {
		t.Fatalf("apply beside a foreign journal: %v %+v", err, res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != "package main\n\nfunc  main() {}\n" {
		t.Errorf("main.go = %q", b)
	}
	if len(res.Recovered) != 1 || res.Recovered[0].Outcome != Foreign {
		t.Errorf("the apply's recovery = %+v, want the foreign journal reported", res.Recovered)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(jdir), journalName)); err != nil {
		t.Errorf("the foreign journal was moved or removed: %v", err)
	}
}

// TestForeignPreviewRefused: a preview shipped with the repository is
// neither shown nor applied, even with a valid shape and matching hashes.
func TestForeignPreviewRefused(t *testing.T) {
	dir := hostileProject(t)
	r := openTest(t, dir, nil)
	p, err := r.PreviewEdits(context.Background(), "mine", []structural.Edit{{Path: "main.go", StartByte: 14, EndByte: 18, Old: "func", New: "func "}})
	if err != nil {
		t.Fatal(err)
	}
	// The planted preview: the user's own, re-sealed by someone else.
	planted := *p
	planted.ID = "fedcba9876543210fedcba98"
	planted.Seal = "s1." + strings.Repeat("B", 43)
	b, _ := json.Marshal(planted)
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(previewPath(planted.ID))), b, 0o644); err != nil {
		t.Fatal(err)
	}
	before := everything(t, dir)
	if _, err := r.Show(planted.ID); !errors.Is(err, seal.ErrForeign) || !errors.Is(err, ErrUnknownPreview) {
		t.Errorf("Show of a planted preview: %v, want ErrForeign", err)
	}
	if _, err := r.Apply(context.Background(), planted.ID, Authorization{Principal: "me"}); !errors.Is(err, seal.ErrForeign) {
		t.Errorf("Apply of a planted preview: %v, want ErrForeign", err)
	}
	if got := everything(t, dir); !equalMaps(got, before) {
		t.Errorf("files changed: %q", got)
	}
	if _, err := r.Show(p.ID); err != nil {
		t.Errorf("the user's own preview: %v", err)
	}
}

// TestForeignAuditLines: audit lines shipped with the repository are
// marked foreign, and never count as the record of a transaction.
func TestForeignAuditLines(t *testing.T) {
	dir := hostileProject(t)
	r := openTest(t, dir, nil)
	if err := r.appendAudit(AuditEvent{Time: time.Now(), Action: "apply", Principal: "me", PreviewID: "p", TxID: "0123456789abcdef01234567", Outcome: Applied}); err != nil {
		t.Fatal(err)
	}
	forged, _ := json.Marshal(AuditEvent{Time: time.Now(), Action: "apply", Principal: "security-team (verified)", PreviewID: "p",
		TxID: "fedcba9876543210fedcba98", Outcome: Applied, Seal: "s1." + strings.Repeat("C", 43)})
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(AuditLog)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(forged, '\n'))
	f.Close()
	evs, bad, err := r.Audit()
	if err != nil || bad != 0 || len(evs) != 2 {
		t.Fatalf("Audit = %+v, %d, %v", evs, bad, err)
	}
	if evs[0].Foreign || !evs[1].Foreign {
		t.Errorf("foreign flags: ours %v, forged %v", evs[0].Foreign, evs[1].Foreign)
	}
	if !r.audited("0123456789abcdef01234567") || r.audited("fedcba9876543210fedcba98") {
		t.Error("audited counts a forged line, or not our own")
	}
}

// TestLinkedStateRefused: a repository that ships the rewrite's state
// directory as a link into the tree gets nothing written there.
func TestLinkedStateRefused(t *testing.T) {
	for _, link := range []struct{ at, to string }{
		{".codecortex", ".git"},
		{".codecortex/rewrite", "../sub"},
		{".codecortex/rewrite/journal", "../../sub"},
	} {
		t.Run(link.at, func(t *testing.T) {
			dir := hostileProject(t)
			at := filepath.Join(dir, filepath.FromSlash(link.at))
			if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(link.to, at); err != nil {
				t.Fatal(err)
			}
			before := everything(t, dir)
			r := openTest(t, dir, nil)
			_, err := r.PreviewEdits(context.Background(), "mine", []structural.Edit{{Path: "main.go", StartByte: 14, EndByte: 18, Old: "func", New: "func "}})
			if err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("a preview through a linked state directory: %v", err)
			}
			if _, err := r.Recover(context.Background()); err == nil && link.at == ".codecortex/rewrite/journal" {
				t.Error("Recover read a linked journal directory without a word")
			}
			after := everything(t, dir)
			if !equalMaps(after, before) {
				t.Errorf("files changed through the link:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
