package testtool

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestMain(m *testing.M) {
	cleanup := IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

func TestFixtureBuildsOnce(t *testing.T) {
	builds := 0
	build := func(dir string) error {
		builds++
		return os.WriteFile(filepath.Join(dir, "built"), []byte("yes"), 0o644)
	}
	a := Fixture(t, "once", build)
	b := Fixture(t, "once", build)
	if a != b || builds != 1 {
		t.Fatalf("two calls: directories %s and %s, %d builds; want one directory, one build", a, b, builds)
	}
	if got, err := os.ReadFile(filepath.Join(a, "built")); err != nil || string(got) != "yes" {
		t.Fatalf("the fixture holds %q, %v", got, err)
	}
	if c := Fixture(t, "other", build); c == a || builds != 2 {
		t.Errorf("another key: directory %s, %d builds; want a new directory and a second build", c, builds)
	}
}

// fatalRecorder records Fatalf instead of failing the test.
type fatalRecorder struct {
	testing.TB
	fatal string
}

func (r *fatalRecorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

func TestFixtureFailureIsKept(t *testing.T) {
	builds := 0
	build := func(string) error {
		builds++
		return errors.New("no indexer")
	}
	for range 2 {
		r := &fatalRecorder{TB: t}
		Fixture(r, "broken", build)
		if want := "fixture broken: no indexer"; r.fatal != want {
			t.Errorf("asking for a fixture whose build failed: %q, want %q", r.fatal, want)
		}
	}
	if builds != 1 {
		t.Errorf("%d builds, want 1: a failed build is not tried again", builds)
	}
}

func TestFixturesRemovedByCleanup(t *testing.T) {
	dir := Fixture(t, "removed", func(string) error { return nil })
	removeFixtures()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after the cleanup, the fixture %s: %v; want it gone", dir, err)
	}
	if again := Fixture(t, "removed", func(string) error { return nil }); again == dir {
		t.Error("after the cleanup, the removed directory is served again")
	}
}
