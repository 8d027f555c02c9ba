package structural

import "sync"

// A handover passes a search's files on in the feed's order as the
// workers finish them, in any order. The worker that finishes the file
// whose turn it is hands it over, and then each following file already
// finished, while the other workers go on parsing; a worker that finishes
// a file out of turn leaves it and takes its next one. No goroutine waits
// to be woken for each file: waking one while the workers were in C cost
// a processor handoff and thread switches for every file
// (docs/benchmarks.md).
type handover[T any] struct {
	mu      sync.Mutex
	pending map[int]T // finished files after next, by index
	next    int       // the index whose turn it is
	busy    bool      // a worker is handing over
	hand    func(T)   // called for each file, in order, one call at a time
}

func newHandover[T any](hand func(T)) *handover[T] {
	return &handover[T]{pending: map[int]T{}, hand: hand}
}

// done reports file i finished with v. It returns once v is handed over
// or left for the worker handing over to take.
func (h *handover[T]) done(i int, v T) {
	h.mu.Lock()
	h.pending[i] = v
	if h.busy {
		h.mu.Unlock()
		return
	}
	h.busy = true
	for {
		v, ok := h.pending[h.next]
		if !ok {
			break
		}
		delete(h.pending, h.next)
		h.next++
		h.mu.Unlock()
		h.hand(v)
		h.mu.Lock()
	}
	h.busy = false
	h.mu.Unlock()
}
