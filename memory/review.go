package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"time"

	"github.com/codecortex/codecortex/seal"
)

// Review says whether this user has reviewed an entry. The entries and the
// audit log are committed and shared, so neither proves who wrote an
// entry: a cloned repository may hold entries nobody on this machine
// wrote, with any author, any date and any text, and audit lines to match.
// What proves a review is an audit line sealed under this user's key
// ([Options].Seal): the line [Store.Remember] appends for an entry this
// user remembers through cortex, or the line [Store.Accept] appends once
// this user has read an entry and accepts it. Every other entry is
// supplied with the repository and unreviewed, however its author and its
// audit lines read.
type Review string

// The review states.
const (
	// Remembered: this user remembered the entry through cortex.
	Remembered Review = "remembered"
	// Accepted: this user accepted the entry (cortex memory accept).
	Accepted Review = "accepted"
	// Unreviewed: the entry came with the repository, and this user has
	// neither written nor accepted it.
	Unreviewed Review = "unreviewed"
)

// Reviewed reports whether r is a review by this user.
func (r Review) Reviewed() bool { return r == Remembered || r == Accepted }

// UnreviewedFactor scales an unreviewed entry's decayed confidence, so
// that it is at most 0.5, and strictly below the confidence of an entry of
// the same type and age that this user reviewed (see [Confidence]).
const UnreviewedFactor = 0.5

// Confidence returns the confidence of a match for an entry of type t at
// the given age, reviewed as r says. A reviewed entry's is its [Decay],
// never below the smallest positive float64 (a gotcha underflows to 0
// after some 265 years); an unreviewed entry's is that times
// [UnreviewedFactor], which is strictly less, since halving a positive
// float64 always lowers it (the smallest rounds to 0). So at equal
// relevance an unreviewed entry never outranks a reviewed entry of the
// same type and age, here or in the evidence ranking, whose ties go to
// the higher confidence.
func Confidence(t Type, age time.Duration, r Review) float64 {
	c := max(Decay(t, age), math.SmallestNonzeroFloat64)
	if !r.Reviewed() {
		c *= UnreviewedFactor
	}
	return c
}

// maxAuditRead bounds what is read of the audit log: a log grown past it
// (some 30,000 lines of 250 bytes) is read up to it, and the reviews of
// lines past it are not seen, which leaves entries unreviewed, never the
// reverse. It bounds what a log shipped with a repository costs every
// command that reads the memory (about 0.5 s here, every line with a seal
// to check).
const maxAuditRead = 8 << 20

// readAudit returns the audit log, at most maxAuditRead bytes of it, with
// its stamp; no data and a zero stamp when there is none. cut says the log
// is longer than what was read.
func (s *Store) readAudit() (data []byte, stamp dirStamp, cut bool, err error) {
	// A look first, so that a FIFO in its place is not opened (an open
	// would wait for a writer).
	fi, err := s.root.Stat(AuditLog)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, dirStamp{}, false, nil
	}
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New(AuditLog + " is not a regular file")
	}
	if err != nil {
		return nil, dirStamp{}, false, fmt.Errorf("memory: %w", err)
	}
	f, err := s.root.FS().Open(AuditLog)
	if err == nil {
		defer f.Close()
		fi, err = f.Stat()
	}
	if err != nil {
		return nil, dirStamp{}, false, fmt.Errorf("memory: %w", err)
	}
	data, err = io.ReadAll(io.LimitReader(f, maxAuditRead+1))
	if err != nil {
		return nil, dirStamp{}, false, fmt.Errorf("memory: %w", err)
	}
	if len(data) > maxAuditRead {
		data, cut = data[:maxAuditRead], true
		// The last line may be cut in two: leave it out.
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	return data, dirStamp{ok: true, mtime: fi.ModTime(), size: fi.Size()}, cut, nil
}

// eachLine calls fn with each non-blank line of data and its number
// (from 1).
func eachLine(data []byte, fn func(n int, ln []byte)) {
	n := 0
	for len(data) > 0 {
		n++
		ln := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(ln)) != 0 {
			fn(n, ln)
		}
	}
}

// eachAuditLine calls fn with each non-blank line of data, its number
// (from 1), and the line parsed and checked, or why it is not a line.
func eachAuditLine(data []byte, fn func(n int, l auditLine, err error)) {
	eachLine(data, func(n int, ln []byte) {
		l, err := parseAuditLine(ln)
		fn(n, l, err)
	})
}

// sealMark is in every sealed line as encoding/json writes it.
var sealMark = []byte(`"seal":"s1.`)

// checker returns what reports whether a line is sealed under this
// user's key, for one pass over the log: the key is loaded once (a
// KeyStore would look for it at every line), and without one no line is.
func (s *Store) checker() func(l *auditLine) bool {
	v := s.sealer()
	if ks, ok := v.(seal.KeyStore); ok {
		k, err := ks.Load()
		if err != nil {
			return func(*auditLine) bool { return false }
		}
		v = k
	}
	return func(l *auditLine) bool {
		return l.Seal != "" && v.Verify(l.Seal, auditPurpose, l.sealParts()...)
	}
}

// reviewsIn returns, by digest, how this user reviewed each entry the
// audit log data speaks of: the lines sealed under this user's key, read
// in order, a remember or accept line marking its digest reviewed and a
// forget line of its digest withdrawing that. Lines of other keys, and
// lines without a seal, are left out whatever they say.
func (s *Store) reviewsIn(data []byte) map[string]Review {
	revs := map[string]Review{}
	sealed := s.checker()
	eachLine(data, func(_ int, ln []byte) {
		if !bytes.Contains(ln, sealMark) {
			return // no seal, no review: not worth parsing
		}
		l, err := parseAuditLine(ln)
		if err != nil || !sealed(&l) {
			return
		}
		switch l.Op {
		case "remember":
			if !revs[l.Digest].Reviewed() {
				revs[l.Digest] = Remembered
			}
		case "accept":
			if !revs[l.Digest].Reviewed() {
				revs[l.Digest] = Accepted
			}
		case "forget":
			delete(revs, l.Digest)
		}
	})
	return revs
}

// reviews returns this user's reviews by digest, reading the audit log
// again only when it changed since the last call. An audit log that cannot
// be read (not a regular file, a link out of the project) reviews
// nothing: every entry is then served as unreviewed, and [Store.Verify]
// says why.
func (s *Store) reviews() (map[string]Review, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reviewsLocked()
}

func (s *Store) reviewsLocked() (map[string]Review, error) {
	if s.revs != nil {
		fi, err := s.root.Stat(AuditLog)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if !s.revStamp.ok {
				return s.revs, nil
			}
		case err == nil:
			if s.revStamp == (dirStamp{ok: true, mtime: fi.ModTime(), size: fi.Size()}) {
				return s.revs, nil
			}
		}
	}
	data, stamp, _, err := s.readAudit()
	if err != nil {
		s.revs, s.revStamp = map[string]Review{}, dirStamp{}
		return s.revs, nil
	}
	s.revs, s.revStamp = s.reviewsIn(data), stamp
	return s.revs, nil
}

// ReviewOf returns how this user has reviewed e (see [Review]).
func (s *Store) ReviewOf(e *Entry) (Review, error) {
	revs, err := s.reviews()
	if err != nil {
		return Unreviewed, err
	}
	if r := revs[e.Digest]; r.Reviewed() {
		return r, nil
	}
	return Unreviewed, nil
}

// Accept records that this user has reviewed the entry with the given id
// and accepts it: an "accept" audit line with its id and digest, who and
// when, sealed under this user's key, so that the entry is served as
// reviewed from then on, on this machine, and in any clone of the project
// that holds the line. who defaults to Options.Author. was is the entry's
// review before the call: [Unreviewed] when this call accepted it; an
// entry reviewed already is returned as it is and nothing is written.
// Only people accept: no tool an agent calls does.
func (s *Store) Accept(ctx context.Context, id, who string) (e Entry, was Review, err error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, Unreviewed, err
	}
	if who == "" {
		who = s.opts.Author
	}
	if who == "" {
		return Entry{}, Unreviewed, &EntryError{Field: "who", Reason: "accepting needs someone to say who accepted"}
	}
	if e, err = s.Get(id); err != nil {
		return Entry{}, Unreviewed, err
	}
	if was, err = s.ReviewOf(&e); err != nil || was.Reviewed() {
		return e, was, err
	}
	line, err := s.encodeAudit(auditLine{Op: "accept", ID: e.ID, Digest: e.Digest, Type: e.Type, Who: who, When: s.now()}, false)
	if err != nil {
		return Entry{}, Unreviewed, err
	}
	if err := s.appendAudit(line); err != nil {
		return Entry{}, Unreviewed, err
	}
	return e, Unreviewed, nil
}
