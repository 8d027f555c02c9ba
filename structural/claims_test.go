package structural

import (
	"testing"
	"time"
)

// claimAsync claims on another goroutine; the channel gets claim's result.
func claimAsync(c *claims) <-chan bool {
	got := make(chan bool, 1)
	go func() { got <- c.claim() }()
	return got
}

// returns reports whether got is sent to within wait, and what.
func returns(got <-chan bool, wait time.Duration) (returned, ok bool) {
	select {
	case ok := <-got:
		return true, ok
	case <-time.After(wait):
		return false, false
	}
}

// held reads the counts under the lock.
func (c *claims) held() (files int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.files, c.bytes
}

func TestClaimsBoundFilesAndBytes(t *testing.T) {
	c := newClaims(3, 100)
	for i := range 3 {
		if !c.claim() {
			t.Fatalf("claim %d under the file cap failed", i)
		}
	}
	fourth := claimAsync(c)
	if returned, _ := returns(fourth, 50*time.Millisecond); returned {
		t.Fatal("a fourth claim did not wait at the file cap")
	}
	c.release(0) // the waiting claim takes the freed place
	if returned, ok := returns(fourth, 5*time.Second); !returned || !ok {
		t.Fatal("a release did not let the waiting claim through")
	}
	for range 3 {
		c.release(0)
	}

	c.claim()
	c.read(100)
	next := claimAsync(c)
	if returned, _ := returns(next, 50*time.Millisecond); returned {
		t.Fatal("a claim did not wait with the bytes at the cap")
	}
	c.release(100)
	if returned, ok := returns(next, 5*time.Second); !returned || !ok {
		t.Fatal("releasing the bytes did not let the waiting claim through")
	}
	c.release(0)
	if files, bytes := c.held(); files != 0 || bytes != 0 {
		t.Fatalf("after every release: %d files, %d bytes held", files, bytes)
	}
}

// TestClaimsOneAlwaysAllowed: a file larger than the byte cap, handed
// over, leaves room to claim the next one; nothing held always allows
// a claim.
func TestClaimsOneAlwaysAllowed(t *testing.T) {
	c := newClaims(1, 10)
	c.claim()
	c.read(1 << 20)
	c.release(1 << 20)
	if returned, ok := returns(claimAsync(c), 5*time.Second); !returned || !ok {
		t.Fatal("with nothing held, a claim waited or failed")
	}
}

func TestClaimsStopWakesWaiters(t *testing.T) {
	c := newClaims(1, 10)
	c.claim()
	waiting := claimAsync(c)
	time.Sleep(10 * time.Millisecond)
	c.stop()
	if returned, ok := returns(waiting, 5*time.Second); !returned {
		t.Fatal("stop did not wake a waiting claim")
	} else if ok {
		t.Fatal("a claim waiting when the search stopped succeeded")
	}
	c.release(0)
	if c.claim() {
		t.Fatal("a claim after stop succeeded")
	}
}
