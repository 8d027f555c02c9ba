package structural

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"
)

// TestHandoverInOrder: files finished in any order, by any number of
// workers at once, are handed over each once, in index order, one at a
// time, and every one is handed over by the time the last done returns.
func TestHandoverInOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "files")
		finish := rapid.Permutation(seq(n)).Draw(t, "finish order")
		workers := rapid.IntRange(1, 8).Draw(t, "workers")
		var (
			got     []int
			inHand  atomic.Int32
			overlap atomic.Bool
		)
		h := newHandover(func(i int) {
			if inHand.Add(1) > 1 {
				overlap.Store(true)
			}
			got = append(got, i)
			inHand.Add(-1)
		})
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					k := int(next.Add(1)) - 1
					if k >= n {
						return
					}
					h.done(finish[k], finish[k])
				}
			}()
		}
		wg.Wait()
		if overlap.Load() {
			t.Fatal("two files were handed over at once")
		}
		if !slices.Equal(got, seq(n)) {
			t.Fatalf("handed over %v, want 0..%d in order", got, n-1)
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestChunksReuse: the slices chunks hands out are capped at their
// length and never overlap, before and after a reset, and a reset leaves
// nothing of what they held for the collector to keep.
func TestChunksReuse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c chunks[*int]
		for round := range rapid.IntRange(1, 4).Draw(t, "rounds") {
			var got [][]*int
			for _, n := range rapid.SliceOfN(rapid.IntRange(0, 300), 1, 40).Draw(t, "sizes") {
				s := c.take(n)
				if s == nil || len(s) != 0 || cap(s) != n {
					t.Fatalf("round %d: take(%d) gave len %d cap %d (nil %v)", round, n, len(s), cap(s), s == nil)
				}
				s = s[:n]
				for i := range s {
					s[i] = new(int)
				}
				got = append(got, s)
			}
			seen := map[**int]bool{}
			for _, s := range got {
				for i := range s {
					if seen[&s[i]] {
						t.Fatalf("round %d: two slices share an element", round)
					}
					seen[&s[i]] = true
				}
			}
			c.reset()
			for _, a := range c.arrays {
				for _, p := range a[:cap(a)] {
					if p != nil {
						t.Fatalf("round %d: a reset kept a pointer", round)
					}
				}
			}
		}
	})
}
