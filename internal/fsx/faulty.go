package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
)

// ErrInjected is the error a [Faulty] file system fails with.
var ErrInjected = errors.New("fsx: injected fault")

// Faulty wraps an [FS] and fails one of its mutating operations on
// purpose: create, write, chmod, sync (of a file or a directory), close,
// mkdir, rename and remove are counted from 1, reads are not. The
// operation numbered FailAt fails with [ErrInjected] without doing
// anything; with Persist, every mutating operation after it fails too, as
// a full disk would. FailAt 0 fails nothing and only counts. It is safe
// for concurrent use.
type Faulty struct {
	FS      FS
	FailAt  int
	Persist bool

	mu  sync.Mutex
	n   int
	log []string
}

// Ops returns how many mutating operations were attempted.
func (f *Faulty) Ops() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// Log returns the mutating operations attempted, in order, the failed
// ones marked.
func (f *Faulty) Log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

// Heal stops the failures: the operations after it succeed.
func (f *Faulty) Heal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.FailAt, f.Persist = 0, false
}

// op counts one operation and says whether it must fail.
func (f *Faulty) op(what, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	fail := f.FailAt > 0 && (f.n == f.FailAt || f.Persist && f.n > f.FailAt)
	entry := fmt.Sprintf("%d %s %s", f.n, what, name)
	if fail {
		entry += " FAILED"
	}
	f.log = append(f.log, entry)
	if fail {
		return fmt.Errorf("%s %s: %w", what, name, ErrInjected)
	}
	return nil
}

func (f *Faulty) ReadFile(name string) ([]byte, error)       { return f.FS.ReadFile(name) }
func (f *Faulty) Lstat(name string) (fs.FileInfo, error)     { return f.FS.Lstat(name) }
func (f *Faulty) ReadDir(name string) ([]fs.DirEntry, error) { return f.FS.ReadDir(name) }

func (f *Faulty) Create(name string, perm fs.FileMode) (File, error) {
	if err := f.op("create", name); err != nil {
		return nil, err
	}
	file, err := f.FS.Create(name, perm)
	if err != nil {
		return nil, err
	}
	return &faultyFile{f: f, name: name, file: file}, nil
}

func (f *Faulty) Append(name string, perm fs.FileMode) (File, error) {
	if err := f.op("append", name); err != nil {
		return nil, err
	}
	file, err := f.FS.Append(name, perm)
	if err != nil {
		return nil, err
	}
	return &faultyFile{f: f, name: name, file: file}, nil
}

func (f *Faulty) MkdirAll(name string, perm fs.FileMode) error {
	if err := f.op("mkdir", name); err != nil {
		return err
	}
	return f.FS.MkdirAll(name, perm)
}

func (f *Faulty) Rename(oldname, newname string) error {
	if err := f.op("rename", oldname+" -> "+newname); err != nil {
		return err
	}
	return f.FS.Rename(oldname, newname)
}

func (f *Faulty) Remove(name string) error {
	if err := f.op("remove", name); err != nil {
		return err
	}
	return f.FS.Remove(name)
}

func (f *Faulty) SyncDir(name string) error {
	if err := f.op("syncdir", name); err != nil {
		return err
	}
	return f.FS.SyncDir(name)
}

// faultyFile counts the operations on an open file. A failed close still
// closes the file underneath, so nothing leaks.
type faultyFile struct {
	f    *Faulty
	name string
	file File
}

func (w *faultyFile) Write(p []byte) (int, error) {
	if err := w.f.op("write", w.name); err != nil {
		return 0, err
	}
	return w.file.Write(p)
}

func (w *faultyFile) Chmod(mode fs.FileMode) error {
	if err := w.f.op("chmod", w.name); err != nil {
		return err
	}
	return w.file.Chmod(mode)
}

func (w *faultyFile) Sync() error {
	if err := w.f.op("sync", w.name); err != nil {
		return err
	}
	return w.file.Sync()
}

func (w *faultyFile) Close() error {
	err := w.f.op("close", w.name)
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	return err
}
