package testtool

import (
	"fmt"
	"os"
	"regexp"
	"sync"
	"testing"
)

// Fixture returns the directory of the fixture named key, which build
// fills the first time any test of the binary asks for it; later calls
// return the same directory. Tests share it, so they must only read it:
// one that writes copies it first ([CopyTree]). A build that fails fails
// every test that asks for the fixture, with the same error, and is not
// tried again. The directories are removed by the cleanup
// [IsolateUserConfig] returns, so only a package whose TestMain calls it
// may use Fixture.
//
// Fixture is for what costs seconds to make, such as running an indexer
// or building a repository with git: one build per test binary instead of
// one per test.
func Fixture(t testing.TB, key string, build func(dir string) error) string {
	t.Helper()
	f := fixtureFor(key)
	f.once.Do(func() { f.dir, f.err = buildFixture(key, build) })
	if f.err != nil {
		t.Fatalf("fixture %s: %v", key, f.err)
	}
	return f.dir
}

type fixture struct {
	once sync.Once
	dir  string
	err  error
}

var fixtures struct {
	sync.Mutex
	root string // made on first use, removed by removeFixtures
	m    map[string]*fixture
}

func fixtureFor(key string) *fixture {
	fixtures.Lock()
	defer fixtures.Unlock()
	if fixtures.m == nil {
		fixtures.m = map[string]*fixture{}
	}
	f := fixtures.m[key]
	if f == nil {
		f = &fixture{}
		fixtures.m[key] = f
	}
	return f
}

var unsafeKey = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func buildFixture(key string, build func(dir string) error) (string, error) {
	if os.Getenv(isolatedEnv) == "" {
		return "", fmt.Errorf("testtool.Fixture needs a TestMain that calls testtool.IsolateUserConfig")
	}
	fixtures.Lock()
	if fixtures.root == "" {
		root, err := os.MkdirTemp("", "cortex-test-fixtures-")
		if err != nil {
			fixtures.Unlock()
			return "", err
		}
		fixtures.root = root
	}
	root := fixtures.root
	fixtures.Unlock()
	dir, err := os.MkdirTemp(root, unsafeKey.ReplaceAllString(key, "_")+"-")
	if err != nil {
		return "", err
	}
	if err := build(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// removeFixtures removes every fixture the binary built.
func removeFixtures() {
	fixtures.Lock()
	defer fixtures.Unlock()
	if fixtures.root != "" {
		os.RemoveAll(fixtures.root)
	}
	fixtures.root, fixtures.m = "", nil
}
