package structural

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestOrderTakesEachFileOnce: workers taking files from an order, in any
// interleaving with searches finishing and files being handed over in
// order, take every file once; no more than maxEarly files taken ahead of
// their turn wait to be handed over; a file is taken ahead only among the
// last lookahead ones and when it is large and larger than the next one in
// turn; and the matches the order counts before next are those of the
// searched files before it.
func TestOrderTakesEachFileOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 150).Draw(t, "files")
		workers := rapid.IntRange(1, 4).Draw(t, "workers")
		files := make([]string, n)
		sizes := make([]int64, n)
		matches := make([]int, n)
		for i := range n {
			files[i] = fmt.Sprintf("f%03d", i)
			sizes[i] = rapid.SampledFrom([]int64{-1, 0, 100, largeFile - 1, largeFile, 3 * largeFile, 9 * largeFile}).Draw(t, "size")
			matches[i] = rapid.IntRange(0, 3).Draw(t, "matches")
		}
		feed := listFeed(files)
		copy(feed.sizes, sizes)
		o := newOrder(feed, workers)
		taken := make([]bool, n)
		ahead := make([]bool, n)
		searched := make([]bool, n)
		busy := map[int]int{} // worker -> file
		handed := 0           // files handed over, in order
		for steps := 0; handed < n; steps++ {
			if steps > 100*n+100 {
				t.Fatalf("no progress: %d of %d handed over", handed, n)
			}
			idle := -1
			for w := range workers {
				if _, ok := busy[w]; !ok {
					idle = w
				}
			}
			switch rapid.IntRange(0, 2).Draw(t, "step") {
			case 0: // an idle worker takes a file
				if idle < 0 {
					continue
				}
				i, early := o.take()
				if i >= n {
					continue // past the end: the worker would stop
				}
				if taken[i] {
					t.Fatalf("file %d taken twice", i)
				}
				taken[i], ahead[i] = true, early
				if early {
					o.mu.Lock()
					next, out := o.next, o.outstanding
					o.mu.Unlock()
					if out > workers {
						t.Fatalf("%d files taken ahead wait, more than %d", out, workers)
					}
					if sizes[i] < largeFile || next < n && sizes[i] <= sizes[next] || n-next > lookahead {
						t.Fatalf("file %d (%d bytes) of %d taken ahead of file %d (%d bytes)", i, sizes[i], n, next, sizes[next])
					}
				}
				busy[idle] = i
			case 1: // a busy worker finishes its file
				for w, i := range busy {
					o.searched(i, matches[i])
					searched[i] = true
					delete(busy, w)
					break
				}
			case 2: // the collector hands over the next file in order
				if handed < n && searched[handed] {
					if ahead[handed] {
						o.handedOver()
					}
					handed++
				}
			}
			o.mu.Lock()
			want := 0
			for i := range min(o.next, n) {
				if !taken[i] {
					t.Fatalf("file %d is before next (%d) but not taken", i, o.next)
				}
				if searched[i] {
					want += matches[i]
				}
			}
			if o.before != want {
				t.Fatalf("%d matches counted before file %d, the searched files there hold %d", o.before, o.next, want)
			}
			o.mu.Unlock()
		}
	})
}

// TestOrderInTurnWithoutLargeFiles: with no file of largeFile bytes, or
// sizes unknown, files are taken in order.
func TestOrderInTurnWithoutLargeFiles(t *testing.T) {
	files := make([]string, 100)
	for i := range files {
		files[i] = fmt.Sprint(i)
	}
	feed := listFeed(files) // sizes unknown
	small := listFeed(files)
	for i := range small.sizes {
		small.sizes[i] = int64(largeFile - 1 - i)
	}
	for _, f := range []*fileFeed{feed, small} {
		o := newOrder(f, 2)
		for want := range files {
			if i, ahead := o.take(); i != want || ahead {
				t.Fatalf("take() = %d, %v, want %d in turn", i, ahead, want)
			}
		}
	}
}
