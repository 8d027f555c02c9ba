package validation

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/seal"
)

// TestForeignResults: results shipped with the repository (a last.json
// claiming every check passed, unsealed or sealed under another key) are
// never served; the user's own run is.
func TestForeignResults(t *testing.T) {
	dir := t.TempDir()
	cmds := []Command{{Name: "ok", Argv: []string{"true"}}}
	other, _ := seal.NewKey([]byte(strings.Repeat("o", seal.KeySize)))
	if _, err := Run(context.Background(), Options{Dir: dir, Commands: cmds, Seal: other}); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(dir, filepath.FromSlash(StateFile))
	b, err := os.ReadFile(planted)
	if err != nil || !strings.Contains(string(b), `"seal"`) {
		t.Fatalf("the stored results: %q, %v", b, err)
	}
	unsealed := strings.Replace(string(b), `"seal"`, `"unsealed"`, 1)
	for name, data := range map[string]string{"sealed under another key": string(b), "unsealed": unsealed} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(planted, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Last(Options{Dir: dir}); !errors.Is(err, ErrForeignResults) || !errors.Is(err, seal.ErrForeign) {
				t.Errorf("Last = %v, want ErrForeignResults", err)
			}
			_, err := New(Options{Dir: dir}).Gather(context.Background(), evidence.Query{Kinds: []evidence.Kind{evidence.Validation}})
			var ue *evidence.UnavailableError
			if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "not written by this user's cortex") {
				t.Errorf("Gather = %v, want unavailable: not written by this user's cortex", err)
			}
		})
	}
	if _, err := Run(context.Background(), Options{Dir: dir, Commands: cmds}); err != nil {
		t.Fatal(err)
	}
	if o, err := Last(Options{Dir: dir}); err != nil || !o.Passed || o.Seal != "" {
		t.Errorf("the user's own results: %+v, %v", o, err)
	}
}
