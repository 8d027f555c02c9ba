package rewrite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/internal/redact"
)

// An AuditEvent is one line of the audit log ([AuditLog]): every apply,
// refused or not, and every recovery of an interrupted apply.
type AuditEvent struct {
	Time time.Time `json:"time"`
	// Action is "apply" or "recover".
	Action string `json:"action"`
	// Principal is who authorized the apply, as the host passed it; Via
	// the front end it came through.
	Principal string `json:"principal"`
	Via       string `json:"via,omitempty"`
	PreviewID string `json:"preview_id"`
	// TxID identifies the transaction that replaced files; empty for a
	// refusal.
	TxID string `json:"tx_id,omitempty"`
	// Outcome is what happened: see the Outcome constants.
	Outcome Outcome `json:"outcome"`
	// Reason says why, for anything but a clean apply.
	Reason string `json:"reason,omitempty"`
	// Files are the files the transaction concerned, with their SHA-256
	// before and after; After is the file's digest as the outcome left it.
	Files []AuditFile `json:"files,omitempty"`
	// Validation is "passed", "failed", "skipped" or "not run".
	Validation string `json:"validation,omitempty"`
	// Seal is the seal (package seal) of the project root and the rest
	// of the event, set when the line is written.
	Seal string `json:"seal,omitempty"`
	// Foreign, set by [Rewriter.Audit] and never written, marks a line
	// whose seal does not check: this user's cortex did not write it.
	Foreign bool `json:"foreign,omitempty"`
}

// purposeAudit is what an audit line's seal is for.
const purposeAudit = "codecortex.rewrite.audit/1"

// sealed returns the bytes an audit line's seal covers.
func (ev AuditEvent) sealed() []byte {
	ev.Seal, ev.Foreign = "", false
	b, err := json.Marshal(ev)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// An AuditFile is one file of an audit event.
type AuditFile struct {
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// Outcome is what an apply or a recovery did.
type Outcome string

// The outcomes.
const (
	// Applied: every file was replaced by its new content.
	Applied Outcome = "applied"
	// Refused: nothing was written (no principal, allow_apply false,
	// expired or unknown preview, a file changed since the preview).
	Refused Outcome = "refused"
	// RolledBack: replacing failed and every file has its old content.
	RolledBack Outcome = "rolled-back"
	// RollbackIncomplete: replacing failed and so did restoring a file or
	// cleaning up after it; the journal is kept, and the next Recover (or
	// apply) finishes the job.
	RollbackIncomplete Outcome = "rollback-incomplete"
	// Completed: a recovery found every file replaced and the
	// transaction committed, and finished it (all new).
	Completed Outcome = "completed"
	// Conflict: a recovery found a file that is neither its old nor its
	// new content (edited since the crash); it was left as it is, and the
	// journal kept under UnresolvedDir.
	Conflict Outcome = "conflict"
	// Foreign: a recovery found a journal this user's cortex did not
	// write (shipped with the repository, or made elsewhere) and did
	// nothing with it; Notes say how to remove it.
	Foreign Outcome = "foreign"
)

// appendAudit appends ev as one line to the audit log and syncs it.
func (r *Rewriter) appendAudit(ev AuditEvent) error {
	if err := r.ensureState(); err != nil {
		return err
	}
	ev.Reason = redact.New().String(ev.Reason)
	ev.Foreign = false
	ev.Seal = ""
	s, err := r.opts.sealer().Seal(purposeAudit, ev.sealed())
	if err != nil {
		return fmt.Errorf("rewrite: audit log: %w", err)
	}
	ev.Seal = s
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	f, err := r.fs.Append(AuditLog, 0o644)
	if err != nil {
		return fmt.Errorf("rewrite: audit log: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rewrite: audit log: %w", err)
	}
	return nil
}

// Audit returns the events of the audit log, oldest first. A line that
// cannot be read (torn by a crash while it was appended) is skipped and
// counted in bad; a line this user's cortex did not write is returned
// with Foreign set.
func (r *Rewriter) Audit() (events []AuditEvent, bad int, err error) {
	b, err := r.fs.ReadFile(AuditLog)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	events, bad = parseAudit(b)
	sealer := r.opts.sealer()
	for i := range events {
		events[i].Foreign = !sealer.Verify(events[i].Seal, purposeAudit, events[i].sealed())
	}
	return events, bad, nil
}

// parseAudit reads audit lines.
func parseAudit(b []byte) (events []AuditEvent, bad int) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var ev AuditEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Action == "" {
			bad++
			continue
		}
		events = append(events, ev)
	}
	if sc.Err() != nil {
		bad++
	}
	return events, bad
}

// audited reports whether the audit log has an event for the
// transaction txid already.
func (r *Rewriter) audited(txid string) bool {
	evs, _, err := r.Audit()
	if err != nil {
		return false
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].TxID == txid && !evs[i].Foreign {
			return true
		}
	}
	return false
}

// cut returns s cut to at most n bytes, on a rune boundary, with an
// ellipsis when it was cut: errors quote at most a short prefix of what
// they refuse.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
