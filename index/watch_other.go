//go:build !linux

package index

// A watcher would report changed directories; without inotify there is
// none and every query walks the tree.
type watcher struct{}

func newWatcher() *watcher { return nil }

func (wt *watcher) add(rel, abs string) (bool, error) { return false, nil }

func (wt *watcher) drain() (map[string]bool, bool, error) { return nil, true, nil }

func (wt *watcher) close() {}
