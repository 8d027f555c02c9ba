package rewrite

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/structural"
)

// FuzzParsePreview: a stored preview is outside input (anyone who can
// write .codecortex can write it); parsing never panics, and what it
// accepts holds its invariants and encodes again.
func FuzzParsePreview(f *testing.F) {
	p := &Preview{Format: PreviewFormat, ID: "0123456789abcdef01234567", Created: time.Unix(0, 0).UTC(), Expires: time.Unix(60, 0).UTC(),
		Source: Source{Kind: SourcePattern, Pattern: "f($X)", Template: "g($X)", Language: "go"},
		Files: []File{{Path: "a.go", Mode: 0o644, SHA256: sha([]byte("f(1)")), NewSHA256: sha([]byte("g(1)")), Size: 4, Diff: "",
			Edits: []structural.Edit{{Path: "a.go", StartByte: 0, EndByte: 4, Old: "f(1)", New: "g(1)"}}}},
		Matches: 1, ChangedBytes: 8}
	b, _ := json.Marshal(p)
	f.Add(b)
	f.Add([]byte(`{"format":"codecortex.rewrite.preview/1","id":"../../x"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePreview(data)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid preview: %v", err)
		}
		for _, f := range p.Files {
			if checkRel(f.Path) != nil {
				t.Fatalf("accepted path %q", f.Path)
			}
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzParseJournal: a journal left by a crash is read back by recovery;
// parsing never panics, and what it accepts names only clean paths with
// temporary files beside them.
func FuzzParseJournal(f *testing.F) {
	j := journalDoc{Format: JournalFormat, TxID: "0123456789abcdef01234567", PreviewID: "76543210fedcba9876543210", Principal: "a",
		Files: []journalFile{{Path: "d/a.go", Temp: "d/" + tempPrefix + "0123456789abcdef01234567-0", Mode: 0o644,
			Before: sha(nil), After: sha([]byte("x")), Offset: 0, Size: 0}}}
	b, _ := json.Marshal(j)
	f.Add(b)
	f.Add([]byte(`{"format":"codecortex.rewrite.journal/1","tx_id":"0123456789abcdef01234567","files":[{"path":"../a","temp":"../.cortex-rewrite-x"}]}`))
	f.Add([]byte(`{"format":"codecortex.rewrite.journal/1","tx_id":"0123456789abcdef01234567","files":[{"path":".GIT/config","temp":".GIT/.cortex-rewrite-x"}]}`))
	key, _ := seal.NewKey(bytes.Repeat([]byte{3}, seal.KeySize))
	r := &Rewriter{opts: Options{Seal: key}}
	sealedSeed := j
	if err := r.sealJournal(&sealedSeed); err != nil {
		f.Fatal(err)
	}
	b, _ = json.Marshal(sealedSeed)
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := parseJournal(data)
		if err != nil {
			return
		}
		var end int64
		for _, f := range j.Files {
			if checkRel(f.Path) != nil || checkRel(f.Temp) != nil || f.Offset != end || f.Size < 0 || stateName(f.Path) {
				t.Fatalf("accepted %+v", f)
			}
			end += f.Size
		}
		// Only the seed sealed with the key is ours; nothing the fuzzer
		// makes of it is, unless it is the same journal.
		if r.ours(j) && !bytes.Equal(j.sealed(), sealedSeed.sealed()) {
			t.Fatalf("a journal the key did not seal passes as ours: %+v", j)
		}
	})
}

// FuzzParseAudit: the audit log may be torn by a crash; reading it never
// panics, and every line is either an event or counted as bad.
func FuzzParseAudit(f *testing.F) {
	f.Add([]byte(`{"time":"2026-01-01T00:00:00Z","action":"apply","principal":"a","preview_id":"x","outcome":"applied"}` + "\n{\"tim"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, _ := parseAudit(data)
		for _, ev := range evs {
			if ev.Action == "" {
				t.Fatalf("accepted an event without an action: %+v", ev)
			}
		}
	})
}
