package seal_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/codecortex/codecortex/seal"
)

func testKey(t *testing.T, b byte) *seal.Key {
	t.Helper()
	k, err := seal.NewKey(bytes.Repeat([]byte{b}, seal.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestVerify(t *testing.T) {
	k, other := testKey(t, 1), testKey(t, 2)
	s, err := k.Seal("journal", []byte("/root"), []byte("doc"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		key     *seal.Key
		seal    string
		purpose string
		parts   []string
		want    bool
	}{
		{"same", k, s, "journal", []string{"/root", "doc"}, true},
		{"another key", other, s, "journal", []string{"/root", "doc"}, false},
		{"nil key", nil, s, "journal", []string{"/root", "doc"}, false},
		{"another purpose", k, s, "preview", []string{"/root", "doc"}, false},
		{"another part", k, s, "journal", []string{"/root", "dog"}, false},
		{"parts joined otherwise", k, s, "journal", []string{"/roo", "tdoc"}, false},
		{"a part more", k, s, "journal", []string{"/root", "doc", ""}, false},
		{"a part fewer", k, s, "journal", []string{"/root"}, false},
		{"purpose as a part", k, s, "", []string{"journal", "/root", "doc"}, false},
		{"empty seal", k, "", "journal", []string{"/root", "doc"}, false},
		{"no prefix", k, strings.TrimPrefix(s, "s1."), "journal", []string{"/root", "doc"}, false},
		{"cut short", k, s[:len(s)-1], "journal", []string{"/root", "doc"}, false},
		{"not base64", k, "s1." + strings.Repeat("!", len(s)-3), "journal", []string{"/root", "doc"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var parts [][]byte
			for _, p := range tt.parts {
				parts = append(parts, []byte(p))
			}
			if got := tt.key.Verify(tt.seal, tt.purpose, parts...); got != tt.want {
				t.Errorf("Verify = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewKeyShort(t *testing.T) {
	if _, err := seal.NewKey(make([]byte, seal.KeySize-1)); err == nil {
		t.Error("a short secret was taken")
	}
}

func TestKeyStore(t *testing.T) {
	dir := t.TempDir()
	store := seal.KeyStore{Path: filepath.Join(dir, "sub", "seal.key")}
	if _, err := store.Load(); !errors.Is(err, seal.ErrNoKey) {
		t.Fatalf("Load before any key: %v, want ErrNoKey", err)
	}
	if store.Verify("s1.x", "p") {
		t.Error("Verify without a key said yes")
	}
	s, err := store.Seal("p", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if !store.Verify(s, "p", []byte("x")) {
		t.Error("a seal the store made does not verify")
	}
	fi, err := os.Stat(store.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(filepath.Dir(store.Path))
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("key directory mode %v, want 0700", di.Mode().Perm())
	}
	// Another store on the same file (another process) reads the same key.
	fresh := seal.KeyStore{Path: store.Path}
	if !fresh.Verify(s, "p", []byte("x")) {
		t.Error("the key read back does not verify the seal")
	}
}

func TestKeyStoreRefusesOpenKey(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "seal.key")
	if err := os.WriteFile(name, []byte("codecortex seal key v1 "+strings.Repeat("A", 43)+"=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := seal.KeyStore{Path: name}.Load()
	if err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("Load of a key others may read: %v, want a refusal naming chmod 600", err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (seal.KeyStore{Path: name}).Load(); err != nil {
		t.Fatalf("Load after chmod 600: %v", err)
	}
}

func TestKeyStoreRefusesStrayFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "seal.key")
	if err := os.WriteFile(name, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (seal.KeyStore{Path: name}).LoadOrCreate(); err == nil || errors.Is(err, seal.ErrNoKey) {
		t.Fatalf("LoadOrCreate over a stray file: %v, want a refusal", err)
	}
}

func TestKeyStoreDefaultPlace(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	getenv := func(k string) string { return env[k] }
	got, err := seal.KeyStore{Getenv: getenv}.File()
	if err != nil || got != "/home/u/.config/codecortex/seal.key" {
		t.Errorf("File with HOME = %q, %v", got, err)
	}
	env["XDG_CONFIG_HOME"] = "/x"
	got, err = seal.KeyStore{Getenv: getenv}.File()
	if err != nil || got != "/x/codecortex/seal.key" {
		t.Errorf("File with XDG_CONFIG_HOME = %q, %v", got, err)
	}
	env = map[string]string{"XDG_CONFIG_HOME": "relative"}
	if _, err := (seal.KeyStore{Getenv: getenv}).File(); !errors.Is(err, seal.ErrNoKey) {
		t.Errorf("File without an absolute place: %v, want ErrNoKey", err)
	}
}

// TestKeyStoreCreateRace: processes creating the key at once all end with
// one key (each store here reads the file itself: a new path each time
// defeats the cache).
func TestKeyStoreCreateRace(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "k", "seal.key")
	const n = 8
	seals := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A distinct but equivalent path per goroutine.
			p := filepath.Join(dir, "k", strings.Repeat("./", i+1)+"seal.key")
			s, err := seal.KeyStore{Path: p}.Seal("p")
			if err != nil {
				t.Error(err)
			}
			seals[i] = s
		}()
	}
	wg.Wait()
	for i := range n {
		if seals[i] != seals[0] {
			t.Fatalf("two keys were made: seal %d differs", i)
		}
	}
	ents, err := os.ReadDir(filepath.Dir(name))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Errorf("the key directory holds %d entries, want the key alone", len(ents))
	}
}
