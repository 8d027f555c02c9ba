package precision

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxFrame bounds one top-level message (metadata, document or external
// symbol) when the index's size is unknown. The largest document seen in a
// real index (prometheus, scip-go) is a few megabytes.
const maxFrame = 64 << 20

// A frameGuard sits between an index file and the streaming parser. At every
// top-level message boundary it peeks at the tag and length and refuses a
// length that runs past the end of the input (or over maxFrame), so a
// corrupt length can never make the parser allocate gigabytes; between
// boundaries it passes bytes through unchanged. The parser reads tags and
// lengths a byte at a time, so the guard also supplies the buffering.
//
// When the input's size is unknown (a pipe), each message is first read
// whole into a buffer that grows only as bytes arrive, so a length that
// promises more than the stream holds is caught before the parser
// allocates for it.
type frameGuard struct {
	r      *bufio.Reader
	remain int64 // bytes left in the input, or -1 when unknown
	pos    int64
	next   int64 // offset of the next message boundary
	err    error
	whole  bytes.Buffer // the current message, when the size is unknown
}

// newFrameGuard wraps r; size is the input's length, or -1 when unknown.
// A reader that knows its own size (bytes.Reader, strings.Reader) or an
// *os.File supplies it when size is unknown.
func newFrameGuard(r io.Reader, size int64) *frameGuard {
	if size < 0 {
		switch v := r.(type) {
		case interface{ Len() int }:
			size = int64(v.Len())
		case *os.File:
			if fi, err := v.Stat(); err == nil && fi.Mode().IsRegular() {
				if off, err := v.Seek(0, io.SeekCurrent); err == nil {
					size = fi.Size() - off
				}
			}
		}
	}
	return &frameGuard{r: bufio.NewReaderSize(r, 256<<10), remain: size}
}

// A FrameError reports a top-level message whose framing is impossible.
type FrameError struct {
	Offset int64
	Reason string
}

func (e *FrameError) Error() string {
	return fmt.Sprintf("corrupt index at byte %d: %s", e.Offset, e.Reason)
}

func (g *frameGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	if g.remain < 0 {
		return g.readWhole(p)
	}
	if g.pos == g.next {
		if err := g.checkFrame(); err != nil {
			if err != io.EOF {
				g.err = err
			}
			return 0, err
		}
	}
	if n := g.next - g.pos; int64(len(p)) > n {
		p = p[:n]
	}
	n, err := g.r.Read(p)
	g.pos += int64(n)
	if g.remain >= 0 {
		g.remain -= int64(n)
	}
	return n, err
}

// readWhole serves the parser from a buffer holding the whole current
// message, reading the next one when it is used up.
func (g *frameGuard) readWhole(p []byte) (int, error) {
	if g.whole.Len() == 0 {
		if err := g.checkFrame(); err != nil {
			if err != io.EOF {
				g.err = err
			}
			return 0, err
		}
		n := g.next - g.pos
		g.whole.Reset()
		got, err := io.CopyN(&g.whole, g.r, n)
		g.pos += got
		if err != nil {
			g.err = &FrameError{g.pos, fmt.Sprintf("message of %d bytes ends after %d (truncated)", n, got)}
			return 0, g.err
		}
	}
	return g.whole.Read(p)
}

// checkFrame validates the message starting at the current position and
// sets the next boundary after it.
func (g *frameGuard) checkFrame() error {
	head, err := g.r.Peek(1 + binaryMaxVarint)
	if len(head) == 0 {
		if err == nil || err == io.EOF {
			return io.EOF
		}
		return err
	}
	num, typ, n := protowire.ConsumeTag(head)
	if n < 0 {
		return &FrameError{g.pos, "unreadable field tag"}
	}
	if num < 1 || num > 3 || typ != protowire.BytesType {
		return &FrameError{g.pos, fmt.Sprintf("unexpected top-level field %d (wire type %d)", num, typ)}
	}
	length, m := protowire.ConsumeVarint(head[n:])
	if m < 0 {
		return &FrameError{g.pos, "truncated or unreadable message length"}
	}
	limit := uint64(maxFrame)
	if g.remain >= 0 {
		left := uint64(g.remain) - uint64(n+m)
		if uint64(g.remain) < uint64(n+m) {
			left = 0
		}
		limit = min(limit, left)
	}
	if length > limit {
		return &FrameError{g.pos, fmt.Sprintf("message of %d bytes runs past the end of the index (truncated?)", length)}
	}
	g.next = g.pos + int64(n+m) + int64(length)
	return nil
}

const binaryMaxVarint = 10
