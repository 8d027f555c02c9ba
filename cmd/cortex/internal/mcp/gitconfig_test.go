package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// The history tools obey no setting of the repository's git configuration
// that needs trust, and carry no file it names out to the agent: with a
// filter driver, a mailmap file and an ignore-revs file naming a secret,
// and core.sshCommand set, cortex_history, cortex_impact and cortex_ask
// run nothing and quote no canary; untrusted, cortex_history is a tool
// error naming the key and saying how to trust it; trusted, it answers.
func TestHistoryToolsAndGitConfig(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		dir := fixture(t)
		gitPath := testtool.Require(t, "git", "apt-get install git")
		secret := filepath.Join(t.TempDir(), "secret")
		marker := filepath.Join(t.TempDir(), "ran")
		hook := filepath.Join(t.TempDir(), "hook.sh")
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(os.WriteFile(secret, []byte("Canary CANARY-51c2 <ada@example.com>\n"), 0o600))
		must(os.WriteFile(hook, []byte("#!/bin/sh\necho ran >> '"+marker+"'\ncat\n"), 0o755))
		must(os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.go filter=evil\n"), 0o644))
		for _, kv := range [][2]string{{"filter.evil.clean", hook}, {"mailmap.file", secret}, {"blame.ignoreRevsFile", secret},
			{"core.sshCommand", hook}} {
			if _, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: gitPath, Args: []string{"config", kv[0], kv[1]},
				Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}, Timeout: time.Minute}); err != nil {
				t.Fatal(err)
			}
		}
		future := time.Now().Add(time.Hour)
		must(os.Chtimes(filepath.Join(dir, "cart", "cart.go"), future, future)) // stat-dirty: git would clean it
		s := newServer(t, dir, Options{Project: openProject(t, dir, trusted, nil)})
		cs := connect(t, s, ReadOnly)
		var all strings.Builder
		for _, c := range []struct {
			name string
			args map[string]any
		}{
			{"cortex_history", map[string]any{"path": "cart/cart.go", "start_line": 18, "end_line": 19}},
			{"cortex_history", map[string]any{"since": "HEAD~1"}},
			{"cortex_impact", map[string]any{"since": "HEAD~1"}},
			{"cortex_ask", map[string]any{"question": "what changed since HEAD~1?"}},
		} {
			res := call(t, cs, c.name, c.args)
			all.WriteString(text(res) + "\n")
			if c.name == "cortex_history" {
				switch {
				case !trusted && (!res.IsError || !strings.Contains(text(res), "core.sshcommand") || !strings.Contains(text(res), "cortex trust")):
					t.Errorf("untrusted %s %v: want a tool error naming core.sshcommand and cortex trust, got %s", c.name, c.args, text(res))
				case trusted && res.IsError:
					t.Errorf("trusted %s %v: %s", c.name, c.args, text(res))
				}
			}
		}
		if strings.Contains(all.String(), "CANARY-51c2") {
			t.Errorf("trusted=%v: the canary reached the agent:\n%s", trusted, all.String())
		}
		if b, err := os.ReadFile(marker); err == nil {
			t.Errorf("trusted=%v: the repository's git configuration ran a program:\n%s", trusted, b)
		}
	}
}
