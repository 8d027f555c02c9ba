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
