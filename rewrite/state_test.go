package rewrite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/fsx"
	"github.com/codecortex/codecortex/structural"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// modelPreview is what the model knows of a preview.
type modelPreview struct {
	id      string
	base    map[string]string // the files it was computed from
	new     map[string]string // what they become
	expires time.Time
}

// machine is the model of a project under rewrites: the files as they
// must be, and the previews made.
type machine struct {
	dir      string
	r        *Rewriter
	faulty   *fsx.Faulty
	now      time.Time
	files    map[string]string // "" key never; a missing file is absent
	previews []modelPreview
}

var machineFiles = []string{"a.txt", "b.txt", "sub/c.txt", "sub/deep/d.txt"}

func newMachine(t *rapid.T, dir string) *machine {
	m := &machine{dir: dir, now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), files: map[string]string{}, faulty: &fsx.Faulty{}}
	for i, name := range machineFiles {
		m.write(t, name, fmt.Sprintf("file %d\nalpha beta\ngamma\n", i))
	}
	r, err := open(Options{Dir: dir, SkipValidation: true,
		Now: func() time.Time { return m.now }}, func(fsys fsx.FS) fsx.FS {
		m.faulty.FS = fsys
		return m.faulty
	})
	if err != nil {
		t.Fatal(err)
	}
	m.r = r
	return m
}

func (m *machine) write(t *rapid.T, name, content string) {
	p := filepath.Join(m.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	m.files[name] = content
}

func (m *machine) present() []string {
	var out []string
	for name := range m.files {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Preview: random edits of some present files.
func (m *machine) preview(t *rapid.T) {
	names := m.present()
	if len(names) == 0 {
		t.Skip("no file")
	}
	chosen := rapid.SliceOfNDistinct(rapid.SampledFrom(names), 1, len(names), rapid.ID[string]).Draw(t, "files")
	var edits []structural.Edit
	newContents := map[string]string{}
	base := map[string]string{}
	for _, name := range chosen {
		src := m.files[name]
		s := rapid.IntRange(0, len(src)).Draw(t, "start")
		e := rapid.IntRange(s, len(src)).Draw(t, "end")
		repl := rapid.SampledFrom([]string{"", "X", "delta\n", "epsilon"}).Draw(t, "new")
		ed := structural.Edit{Path: name, StartByte: s, EndByte: e, Old: src[s:e], New: repl}
		edits = append(edits, ed)
		out, err := structural.ApplyEdits([]byte(src), []structural.Edit{ed})
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != src {
			newContents[name], base[name] = string(out), src
		}
	}
	p, err := m.r.PreviewEdits(context.Background(), "state machine", edits)
	if len(newContents) == 0 {
		if !errors.Is(err, ErrNoChanges) {
			t.Fatalf("a preview that changes nothing: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	m.previews = append(m.previews, modelPreview{id: p.ID, base: base, new: newContents, expires: m.now.Add(DefaultPreviewTTL)})
}

// Edit: someone edits a file, or deletes it, or brings it back.
func (m *machine) edit(t *rapid.T) {
	name := rapid.SampledFrom(machineFiles).Draw(t, "file")
	_, present := m.files[name]
	switch {
	case present && rapid.IntRange(0, 3).Draw(t, "delete") == 0:
		if err := os.Remove(filepath.Join(m.dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
		delete(m.files, name)
	default:
		m.write(t, name, m.files[name]+rapid.SampledFrom([]string{"zeta\n", "eta", "\n"}).Draw(t, "append"))
	}
}

// Wait: time passes, and previews may expire.
func (m *machine) wait(t *rapid.T) {
	m.now = m.now.Add(time.Duration(rapid.IntRange(0, 40).Draw(t, "minutes")) * time.Minute)
}

// pick draws one of the previews.
func (m *machine) pick(t *rapid.T) modelPreview {
	if len(m.previews) == 0 {
		t.Skip("no preview")
	}
	return m.previews[rapid.IntRange(0, len(m.previews)-1).Draw(t, "preview")]
}

// applies says whether applying mp now must succeed, and the refusal it
// must get otherwise.
func (m *machine) applies(mp modelPreview) (ok bool, refusal error) {
	if !m.now.Before(mp.expires) {
		return false, ErrExpired
	}
	for name, content := range mp.base {
		if got, ok := m.files[name]; !ok || got != content {
			return false, ErrChanged
		}
	}
	return true, nil
}

// Apply: apply a preview; it succeeds exactly when it has not expired and
// none of its files changed since.
func (m *machine) apply(t *rapid.T) {
	mp := m.pick(t)
	ok, refusal := m.applies(mp)
	res, err := m.r.Apply(context.Background(), mp.id, Authorization{Principal: "rapid"})
	if !ok {
		if !errors.Is(err, refusal) {
			t.Fatalf("apply of %s: %v, want %v", mp.id, err, refusal)
		}
		return
	}
	if err != nil || res.Outcome != Applied {
		t.Fatalf("apply of %s: %v %+v", mp.id, err, res)
	}
	for name, content := range mp.new {
		m.files[name] = content
	}
}

// Crash: apply a preview with one file operation failing (once, or from
// then on), then heal and recover: the preview's files are all old or all
// new, and the result and the recovery say which.
func (m *machine) crash(t *rapid.T) {
	mp := m.pick(t)
	ok, refusal := m.applies(mp)
	m.faulty.FailAt = m.faulty.Ops() + rapid.IntRange(1, 60).Draw(t, "op")
	m.faulty.Persist = rapid.Bool().Draw(t, "persist")
	res, err := m.r.Apply(context.Background(), mp.id, Authorization{Principal: "rapid"})
	m.faulty.Heal()
	recs, rerr := m.r.Recover(context.Background())
	if rerr != nil {
		t.Fatalf("recover: %v", rerr)
	}
	if !ok && errors.Is(err, refusal) {
		return
	}
	// Which did it end as? Old is what the model holds now (the
	// preview's base, when it can apply).
	allNew, allOld := true, true
	for name := range mp.new {
		b, err := os.ReadFile(filepath.Join(m.dir, filepath.FromSlash(name)))
		cur, present := m.files[name]
		allNew = allNew && err == nil && string(b) == mp.new[name]
		allOld = allOld && (err == nil) == present && string(b) == cur
	}
	switch {
	case !ok:
		// Refused, or failed before its refusal could be seen: untouched.
		if !allOld {
			t.Fatalf("an apply that must be refused (%v) got %v and changed files", refusal, err)
		}
	case err == nil:
		if !allNew {
			t.Fatalf("apply succeeded, files are not all new")
		}
	case allOld == allNew:
		t.Fatalf("after %v and recovery %+v, the files are a mix", err, recs)
	}
	if res != nil && res.Outcome == RolledBack && !allOld {
		t.Fatalf("reported rolled back, files are not old")
	}
	if ok && allNew {
		for name, content := range mp.new {
			m.files[name] = content
		}
	}
}

// Recover with nothing interrupted does nothing.
func (m *machine) recover(t *rapid.T) {
	recs, err := m.r.Recover(context.Background())
	if err != nil || len(recs) != 0 {
		t.Fatalf("recover with nothing to do: %v %+v", err, recs)
	}
}

// check: the tree is the model, and nothing is left behind.
func (m *machine) check(t *rapid.T) {
	got := map[string]string{}
	for name, c := range snapshot(t, m.dir) {
		got[name] = c
	}
	if diff := cmp.Diff(m.files, got); diff != "" {
		t.Fatalf("tree (-model +disk):\n%s", diff)
	}
	if ents, _ := os.ReadDir(filepath.Join(m.dir, JournalDir)); len(ents) != 0 {
		t.Fatalf("journal left: %v", ents)
	}
}

// TestStateMachine runs random sequences of previews, edits and deletions
// of files, time passing, applies, applies with a failing file operation,
// and recoveries, against a model of what the files must be.
func TestStateMachine(tt *testing.T) {
	rapid.Check(tt, func(t *rapid.T) {
		m := newMachine(t, memTempDir(tt))
		defer m.r.Close()
		t.Repeat(map[string]func(*rapid.T){
			"preview": m.preview,
			"edit":    m.edit,
			"wait":    m.wait,
			"apply":   m.apply,
			"crash":   m.crash,
			"recover": m.recover,
			"":        m.check,
		})
	})
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"0123456789abcdef01234567":  true,
		"0123456789ABCDEF01234567":  false, // upper case
		"0123456789abcdef0123456":   false, // 23 digits
		"0123456789abcdef012345678": false, // 25
		"0123456789abcdef0123456g":  false,
		"../456789abcdef0123456789": false,
		"":                          false,
	} {
		if got := validID(id); got != want {
			t.Errorf("validID(%q) = %v, want %v", id, got, want)
		}
	}
}
