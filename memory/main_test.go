package memory

import (
	"bytes"
	"os"
	"testing"

	"github.com/codecortex/codecortex/seal"
)

// TestMain points the user's configuration directory at a temporary one,
// so that a store opened without Options.Seal (the examples, the helper
// processes) makes and reads its key there, never in the real home.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "memory-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", home+"/.config")
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// testSeal is the key the tests' stores seal with; otherSeal is another
// user's.
var testSeal, otherSeal = mustKey(7), mustKey(9)

func mustKey(b byte) *seal.Key {
	k, err := seal.NewKey(bytes.Repeat([]byte{b}, seal.KeySize))
	if err != nil {
		panic(err)
	}
	return k
}
