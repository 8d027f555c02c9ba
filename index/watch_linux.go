package index

import (
	"bytes"
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A watcher reports which directories of the tree changed since it was
// last asked, through inotify. It is not safe for concurrent use.
type watcher struct {
	fd   int
	wds  map[int]string // watch descriptor → directory (relative, "." for the root)
	dirs map[string]int // directory → watch descriptor
	buf  []byte
}

// watchMask is what a directory's watch reports: a file written, touched,
// created, removed or renamed in it, and the directory itself going away.
const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// newWatcher returns a watcher, or nil when inotify is not available.
func newWatcher() *watcher {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &watcher{fd: fd, wds: map[int]string{}, dirs: map[string]int{}, buf: make([]byte, 64<<10)}
}

// add watches a directory; added is false when it was watched already. An
// error (such as the per-user limit on watches) means the watcher can no
// longer see the whole tree.
func (wt *watcher) add(rel, abs string) (added bool, err error) {
	if _, ok := wt.dirs[rel]; ok {
		return false, nil
	}
	wd, err := unix.InotifyAddWatch(wt.fd, abs, watchMask)
	if err != nil {
		return false, err
	}
	if old, ok := wt.wds[wd]; ok { // the same directory under another path
		delete(wt.dirs, old)
	}
	wt.wds[wd], wt.dirs[rel] = rel, wd
	return true, nil
}

// drain reads the events that arrived and returns the directories they
// name. rescan is true when the events cannot be trusted to say everything
// that changed: the kernel's queue overflowed, a watched directory went
// away or an ignore file changed.
func (wt *watcher) drain() (dirty map[string]bool, rescan bool, err error) {
	dirty = map[string]bool{}
	for {
		n, err := unix.Read(wt.fd, wt.buf)
		if errors.Is(err, unix.EAGAIN) {
			return dirty, rescan, nil
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, true, err
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&wt.buf[off]))
			name := wt.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				rescan = true
				continue
			}
			dir, ok := wt.wds[int(ev.Wd)]
			if !ok {
				continue
			}
			switch {
			case ev.Mask&unix.IN_IGNORED != 0:
				delete(wt.wds, int(ev.Wd))
				if wt.dirs[dir] == int(ev.Wd) {
					delete(wt.dirs, dir)
				}
				rescan = true
			case ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0, string(name) == ignoreFile:
				rescan = true
			}
			dirty[dir] = true
		}
	}
}

func (wt *watcher) close() { unix.Close(wt.fd) }
