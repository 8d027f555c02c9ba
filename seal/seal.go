package seal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A Sealer seals what a layer writes and verifies what it reads back.
// Implementations are safe for concurrent use.
type Sealer interface {
	// Seal returns the seal of parts for purpose. It fails only when the
	// key cannot be had (see [KeyStore.LoadOrCreate]).
	Seal(purpose string, parts ...[]byte) (string, error)
	// Verify reports whether s is the seal of parts for purpose under
	// this user's key. Without a key nothing verifies.
	Verify(s, purpose string, parts ...[]byte) bool
}

// KeySize is the size of a key in bytes.
const KeySize = 32

// A Key is a secret to seal with. Its zero value is not usable; make one
// with [NewKey] or get the user's from a [KeyStore].
type Key struct {
	secret [KeySize]byte
}

// NewKey returns a key from secret, which must hold at least [KeySize]
// bytes of randomness (only the first KeySize bytes are used).
func NewKey(secret []byte) (*Key, error) {
	if len(secret) < KeySize {
		return nil, fmt.Errorf("seal: a key needs %d bytes, got %d", KeySize, len(secret))
	}
	k := &Key{}
	copy(k.secret[:], secret)
	return k, nil
}

// prefix starts every seal: the version of the construction.
const prefix = "s1."

// Seal returns the seal of parts for purpose; it never fails.
func (k *Key) Seal(purpose string, parts ...[]byte) (string, error) {
	return prefix + base64.RawURLEncoding.EncodeToString(k.sum(purpose, parts)), nil
}

// Verify reports whether s is the seal of parts for purpose under k. A nil
// key verifies nothing.
func (k *Key) Verify(s, purpose string, parts ...[]byte) bool {
	if k == nil {
		return false
	}
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || len(rest) != base64.RawURLEncoding.EncodedLen(sha256.Size) {
		return false
	}
	got, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return false
	}
	return hmac.Equal(got, k.sum(purpose, parts))
}

// sum is HMAC-SHA256 over the purpose and the parts, each preceded by its
// length.
func (k *Key) sum(purpose string, parts [][]byte) []byte {
	m := hmac.New(sha256.New, k.secret[:])
	writePart(m, []byte(purpose))
	for _, p := range parts {
		writePart(m, p)
	}
	return m.Sum(nil)
}

func writePart(h hash.Hash, p []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(p)))
	h.Write(n[:])
	h.Write(p)
}

// ErrForeign is matched by the errors of every layer that refuses a file
// whose seal does not check: it was not written by this user's CodeCortex.
var ErrForeign = errors.New("not written by this user's CodeCortex")

// ErrNoKey is matched by the error for a key store that has no key yet, or
// no place for one.
var ErrNoKey = errors.New("seal: no key")

// A KeyStore keeps the user's key in a file outside every repository. The
// zero value uses the user's configuration directory. A KeyStore is a
// [Sealer]: it loads the key on first use and creates it on the first
// seal.
type KeyStore struct {
	// Path is the key file; empty means codecortex/seal.key under
	// $XDG_CONFIG_HOME, or under $HOME/.config without it.
	Path string
	// Getenv reads XDG_CONFIG_HOME and HOME; nil means os.Getenv.
	Getenv func(string) string
}

// User returns the sealer for the user's key in its default place: the
// zero [KeyStore].
func User() Sealer { return KeyStore{} }

// File returns the key file's path.
func (s KeyStore) File() (string, error) {
	if s.Path != "" {
		return s.Path, nil
	}
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "codecortex", "seal.key"), nil
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "codecortex", "seal.key"), nil
	}
	return "", fmt.Errorf("%w: set XDG_CONFIG_HOME or HOME", ErrNoKey)
}

// keyHeader starts the key file, so that a stray file is not taken for a
// key.
const keyHeader = "codecortex seal key v1 "

// keys caches the keys read, by file, so that a process reads its key once.
var keys sync.Map // path → *Key

// Load returns the key, or an error matching [ErrNoKey] when there is none
// yet. A key file that a group or others may read or write is refused.
func (s KeyStore) Load() (*Key, error) {
	name, err := s.File()
	if err != nil {
		return nil, err
	}
	if k, ok := keys.Load(name); ok {
		return k.(*Key), nil
	}
	k, err := readKey(name)
	if err != nil {
		return nil, err
	}
	actual, _ := keys.LoadOrStore(name, k)
	return actual.(*Key), nil
}

// LoadOrCreate returns the key, creating it when there is none: 32 bytes
// from crypto/rand, in a file readable by the user alone, in a directory
// the user alone may enter. Of two processes creating it at once, both end
// with the one that was linked into place first.
func (s KeyStore) LoadOrCreate() (*Key, error) {
	k, err := s.Load()
	if !errors.Is(err, ErrNoKey) {
		return k, err
	}
	name, ferr := s.File()
	if ferr != nil {
		return nil, ferr
	}
	if err := createKey(name); err != nil {
		return nil, err
	}
	return s.Load()
}

// Seal seals with the stored key, creating it if needed.
func (s KeyStore) Seal(purpose string, parts ...[]byte) (string, error) {
	k, err := s.LoadOrCreate()
	if err != nil {
		return "", err
	}
	return k.Seal(purpose, parts...)
}

// Verify verifies with the stored key; without one nothing verifies.
func (s KeyStore) Verify(seal, purpose string, parts ...[]byte) bool {
	k, err := s.Load()
	if err != nil {
		return false
	}
	return k.Verify(seal, purpose, parts...)
}

// maxKeyFile bounds what is read of a key file.
const maxKeyFile = 256

// readKey reads the key file name.
func readKey(name string) (*Key, error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNoKey, name)
	}
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("seal: the key %s is not a regular file", name)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("seal: the key %s may be read or written by others (mode %v); make it the user's alone (chmod 600) or remove it to make a new one", name, fi.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile))
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	enc, ok := strings.CutPrefix(strings.TrimSpace(string(data)), keyHeader)
	raw, derr := base64.StdEncoding.DecodeString(enc)
	if !ok || derr != nil || len(raw) != KeySize {
		return nil, fmt.Errorf("seal: %s is not a CodeCortex key; remove it to make a new one", name)
	}
	return NewKey(raw)
}

// createKey writes a new key to name unless one is there already.
func createKey(name string) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("seal: %w", err)
	}
	var raw [KeySize]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return fmt.Errorf("seal: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".seal-*.key")
	if err != nil {
		return fmt.Errorf("seal: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := io.WriteString(tmp, keyHeader+base64.StdEncoding.EncodeToString(raw[:])+"\n")
	if werr == nil {
		werr = tmp.Chmod(0o600)
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("seal: writing the key: %w", werr)
	}
	// A link fails when the name exists: the first process to link wins
	// and the others read its key.
	if err := os.Link(tmp.Name(), name); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("seal: writing the key: %w", err)
	}
	return nil
}
