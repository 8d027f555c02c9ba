package precision

import (
	"bytes"
	"context"
	"testing"

	"github.com/codecortex/codecortex/seal"
)

// testSeal is the key the tests that build snapshots by hand seal with.
var testSeal = func() *seal.Key {
	k, err := seal.NewKey(bytes.Repeat([]byte{5}, seal.KeySize))
	if err != nil {
		panic(err)
	}
	return k
}()

// anySeal verifies every seal: the fuzz target reads snapshots past their
// seal, to reach the parser behind it.
type anySeal struct{}

func (anySeal) Seal(string, ...[]byte) (string, error) { return "s1.any", nil }
func (anySeal) Verify(string, string, ...[]byte) bool  { return true }

// accept vouches for the index of the project at dir as its user would
// (cortex precision-status --accept), with the tests' user key.
func accept(t testing.TB, opts Options) {
	t.Helper()
	p := New(opts)
	defer p.Close()
	if _, err := p.Accept(context.Background()); err != nil {
		t.Fatalf("accepting the index: %v", err)
	}
}

// encodeTest writes a snapshot of ix for key, sealed with testSeal.
func encodeTest(t testing.TB, ix *Index, key snapshotKey) []byte {
	t.Helper()
	b, err := encodeSnapshot(ix, key, [32]byte{1, 2, 3}, testSeal)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeTest reads a snapshot sealed with s.
func decodeTest(data []byte, key snapshotKey, s seal.Sealer) (*Index, error) {
	ix, _, err := decodeSnapshot(data, key, s)
	return ix, err
}
