package rewrite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/flock"
	"github.com/codecortex/codecortex/internal/fsx"
	"github.com/codecortex/codecortex/structural"
)

// interrupted leaves, in a new project of three files, the journal of an
// apply whose second rename failed on a disk that then failed everything:
// the first file has its new content, the others their old one. It
// returns the project, its contents and the preview's id.
func interrupted(t *testing.T) (dir string, old, new map[string]string, id string) {
	t.Helper()
	dir = memTempDir(t)
	old, new, edits := txnProject(t, dir, 3, 3, 1)
	r0 := openTest(t, dir, nil)
	p, err := r0.PreviewEdits(context.Background(), "x", edits)
	if err != nil {
		t.Fatal(err)
	}
	// Find the second rename of a target in a clean run of a copy.
	probe := copyProject(t, dir)
	counter := &fsx.Faulty{}
	rc := openFaulty(t, probe, counter)
	if _, err := rc.Apply(context.Background(), p.ID, Authorization{Principal: "t"}); err != nil {
		t.Fatal(err)
	}
	rc.Close()
	at, renames := 0, 0
	for i, op := range counter.Log() {
		if strings.Contains(op, " rename d") {
			if renames++; renames == 2 {
				at = i + 1
				break
			}
		}
	}
	faulty := &fsx.Faulty{FailAt: at, Persist: true}
	r := openFaulty(t, dir, faulty)
	defer r.Close()
	res, err := r.Apply(context.Background(), p.ID, Authorization{Principal: "t"})
	if !errors.Is(err, ErrApplyFailed) || res.Outcome != RollbackIncomplete || len(res.Rollback.Unrestored) != 1 {
		t.Fatalf("apply with the second rename failing: %v %+v", err, res)
	}
	return dir, old, new, p.ID
}

// Opening, showing and previewing never recover: an interrupted apply is
// recovered by Recover (or the next Apply), and until then Pending lists
// it.
func TestRecoverExplicitly(t *testing.T) {
	dir, old, new, id := interrupted(t)
	mixed := treeState(t, dir, old, new)
	if mixed == "old" || mixed == "new" {
		t.Fatalf("the interrupted apply left the tree %s; want a mix to recover", mixed)
	}
	r := openTest(t, dir, nil)
	if _, err := r.Show(id); err != nil {
		t.Fatal(err)
	}
	var some string
	for name := range old {
		some = name
	}
	if _, err := r.PreviewEdits(context.Background(), "another", []structural.Edit{{Path: some, StartByte: 0, EndByte: 0, Old: "", New: "// x\n"}}); err != nil {
		t.Fatal(err)
	}
	if s := treeState(t, dir, old, new); s != mixed {
		t.Fatalf("Open, Show and PreviewEdits changed the tree to %s", s)
	}
	pend := r.Pending()
	if len(pend) != 1 || pend[0].Foreign || !strings.HasPrefix(pend[0].Journal, JournalDir+"/") {
		t.Fatalf("Pending = %+v, want the one journal, ours", pend)
	}
	recs, err := r.Recover(context.Background())
	if err != nil || len(recs) != 1 {
		t.Fatalf("Recover recovered %+v, %v", recs, err)
	}
	if rec := recs[0]; rec.Outcome != RolledBack || rec.Found != "journal" || len(rec.Restored) != 1 || rec.Principal != "t" {
		t.Errorf("recovery %+v", rec)
	}
	if s := treeState(t, dir, old, new); s != "old" {
		t.Errorf("after Recover the tree is %s", s)
	}
	if pend := r.Pending(); len(pend) != 0 {
		t.Errorf("Pending after Recover = %+v", pend)
	}
	evs, _, _ := r.Audit()
	if last := evs[len(evs)-1]; last.Action != "recover" || last.Outcome != RolledBack {
		t.Errorf("last audit event %+v", last)
	}
}

// A file edited between the crash and the recovery is neither old nor
// new: it is left as it is, the other files are restored, and the journal
// is moved aside so that applies go on.
func TestRecoverConflict(t *testing.T) {
	dir, old, new, _ := interrupted(t)
	var edited string
	for name := range old {
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if string(b) == new[name] {
			edited = name
		}
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(edited)), []byte("someone else's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := openTest(t, dir, nil)
	recs, err := r.Recover(context.Background())
	if !errors.Is(err, ErrUnrecovered) || len(recs) != 1 {
		t.Fatalf("Recover recovered %+v, %v", recs, err)
	}
	rec := recs[0]
	if rec.Outcome != Conflict || len(rec.Conflicts) != 1 || rec.Conflicts[0] != edited || !strings.HasPrefix(rec.Journal, UnresolvedDir+"/") {
		t.Errorf("recovery %+v", rec)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(edited))); string(b) != "someone else's\n" {
		t.Errorf("the edited file was touched: %q", b)
	}
	for name := range old {
		if b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); name != edited && string(b) != old[name] {
			t.Errorf("%s was not restored", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rec.Journal), journalName)); err != nil {
		t.Errorf("the journal was not kept: %v", err)
	}
	// Applies go on: the restored files can be rewritten again.
	var rest string
	for name := range old {
		if name != edited {
			rest = name
			break
		}
	}
	p, err := r.PreviewEdits(context.Background(), "again", []structural.Edit{{Path: rest, StartByte: 0, EndByte: 4, Old: "line", New: "LINE"}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := r.Apply(context.Background(), p.ID, Authorization{Principal: "t"}); err != nil || res.Outcome != Applied {
		t.Errorf("an apply after the conflict: %v", err)
	}
}

// While another process holds the apply lock, Recover leaves the journal
// alone and says so, applies are refused, and once the lock is free
// Recover finishes.
func TestRecoverBusy(t *testing.T) {
	dir, old, new, id := interrupted(t)
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(lockFile)), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, err := flock.TryLock(f); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	r := openTest(t, dir, nil)
	if recs, err := r.Recover(context.Background()); !errors.Is(err, ErrBusy) || len(recs) != 0 {
		t.Fatalf("Recover while locked: %+v %v", recs, err)
	}
	if s := treeState(t, dir, old, new); s == "old" || s == "new" {
		t.Fatalf("the journal was acted on while locked: %s", s)
	}
	if _, err := r.Apply(context.Background(), id, Authorization{Principal: "t"}); !errors.Is(err, ErrBusy) {
		t.Errorf("apply while locked: %v", err)
	}
	flock.Unlock(f)
	recs, err := r.Recover(context.Background())
	if err != nil || len(recs) != 1 || recs[0].Outcome != RolledBack {
		t.Fatalf("recover: %+v %v", recs, err)
	}
	if s := treeState(t, dir, old, new); s != "old" {
		t.Errorf("after recovery the tree is %s", s)
	}
}

// Previews are kept a day past their expiry (applying one says
// "expired"), then pruned when another preview is stored ("unknown").
func TestPreviewsPruned(t *testing.T) {
	dir := memTempDir(t)
	_, _, edits := txnProject(t, dir, 1, 2, 1)
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	r := openTest(t, dir, func(o *Options) { o.Now = func() time.Time { return now } })
	ctx := context.Background()
	p, err := r.PreviewEdits(ctx, "first", edits)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(DefaultPreviewTTL + 23*time.Hour)
	if _, err := r.PreviewEdits(ctx, "second", edits); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(ctx, p.ID, Authorization{Principal: "t"}); !errors.Is(err, ErrExpired) {
		t.Errorf("a day after: %v, want ErrExpired", err)
	}
	now = now.Add(2 * time.Hour)
	if _, err := r.PreviewEdits(ctx, "third", edits); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(ctx, p.ID, Authorization{Principal: "t"}); !errors.Is(err, ErrUnknownPreview) {
		t.Errorf("past a day after: %v, want ErrUnknownPreview", err)
	}
}
