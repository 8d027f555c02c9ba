package structural

import "sync"

// claims bounds how far the search's workers run ahead of the matches
// handed over: the files claimed and not handed over yet, and the bytes
// of those of them that are read, each stay under a cap, and at least one
// file can always be claimed. A count alone lets a large file at the
// head of the order idle the other workers once they have claimed the
// small files after it; bytes bound what the files held meanwhile cost.
type claims struct {
	mu       sync.Mutex
	more     sync.Cond // signalled when files are handed over or the search stops
	files    int
	bytes    int64
	maxFiles int
	maxBytes int64
	stopped  bool
}

func newClaims(maxFiles int, maxBytes int64) *claims {
	c := &claims{maxFiles: maxFiles, maxBytes: maxBytes}
	c.more.L = &c.mu
	return c
}

// claim waits until a file may be claimed and counts it; false when the
// search stopped.
func (c *claims) claim() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for !c.stopped && c.files > 0 && (c.files >= c.maxFiles || c.bytes >= c.maxBytes) {
		c.more.Wait()
	}
	if c.stopped {
		return false
	}
	c.files++
	return true
}

// read counts n bytes read for a claimed file.
func (c *claims) read(n int64) {
	c.mu.Lock()
	c.bytes += n
	c.mu.Unlock()
}

// release gives back a claimed file and the n bytes read for it.
func (c *claims) release(n int64) {
	c.mu.Lock()
	c.files--
	c.bytes -= n
	c.mu.Unlock()
	c.more.Broadcast()
}

// stop wakes every waiting claim, and fails it and every later one.
func (c *claims) stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	c.more.Broadcast()
}
