package structural

import "sync"

// An order hands a search's files to its workers: in the feed's order,
// except that among the last lookahead files the largest goes first when
// it is large (largeFile) and larger than the one whose turn it is. In the
// feed's order alone a large file near the end is parsed by one worker
// while the others have nothing left to do (the tail of the small rows in
// docs/benchmarks.md). The sizes are the walk's (listed files have none,
// and go in order). At most maxEarly files taken ahead of their turn wait
// to be handed over at once, so what their matches hold stays bounded.
//
// It also counts the matches in the searched files before next, the first
// file not taken: every file before next has been taken, so once they hold
// the match limit the files from next on cannot change which matches come
// first, and no more need be taken. Matches in files taken ahead count
// once next has passed them.
type order struct {
	mu          sync.Mutex
	feed        *fileFeed
	maxEarly    int
	next        int          // every file before it has been taken
	early       map[int]bool // files at or past next taken ahead of their turn
	pending     map[int]int  // the matches of searched files in early
	before      int          // matches in searched files before next
	outstanding int          // files taken ahead and not handed over
}

const (
	// lookahead is how near the end next must be for take to look past
	// it for a large file.
	lookahead = 64
	// largeFile is the least size of a file taken ahead of its turn.
	largeFile = 16 << 10
)

func newOrder(feed *fileFeed, maxEarly int) *order {
	return &order{feed: feed, maxEarly: maxEarly, early: map[int]bool{}, pending: map[int]int{}}
}

// take returns the file to search next and whether it was taken ahead of
// its turn. The file may lie past the feed's end (see fileFeed.at).
func (o *order) take() (i int, ahead bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.outstanding < o.maxEarly {
		best := o.largest()
		if best != o.next {
			o.early[best] = true
			o.outstanding++
			return best, true
		}
	}
	i = o.next
	o.next++
	o.pass()
	return i, false
}

// largest returns the file to take ahead of next: once the walk is done
// and next is among the last lookahead files, the largest after it when
// that is a large file larger than next; next otherwise.
func (o *order) largest() int {
	f := o.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	// Only the last files: earlier, a large file's parse overlaps the
	// others', and taking large files together would only raise the peak
	// of memory their parses hold.
	if !f.done || len(f.sizes)-o.next > lookahead {
		return o.next
	}
	best, bestSize := o.next, int64(largeFile-1)
	if o.next < len(f.sizes) {
		bestSize = max(bestSize, f.sizes[o.next])
	}
	for j := o.next + 1; j < len(f.sizes); j++ {
		if f.sizes[j] > bestSize && !o.early[j] {
			best, bestSize = j, f.sizes[j]
		}
	}
	return best
}

// pass moves next past the files taken ahead, counting their matches.
func (o *order) pass() {
	for o.early[o.next] {
		delete(o.early, o.next)
		if n, ok := o.pending[o.next]; ok {
			o.before += n
			delete(o.pending, o.next)
		}
		o.next++
	}
}

// searched records that file i holds n matches.
func (o *order) searched(i, n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i < o.next {
		o.before += n
	} else {
		o.pending[i] = n
	}
}

// handedOver records that a file taken ahead of its turn was handed over.
func (o *order) handedOver() {
	o.mu.Lock()
	o.outstanding--
	o.mu.Unlock()
}

// reached reports whether the searched files before next hold limit
// matches, and next, the first file not taken.
func (o *order) reached(limit int) (bool, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.before >= limit, o.next
}
