package history

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
)

// hostileHook writes a script that records each run in a marker file and
// passes its input (or the file it is given) through, as a filter or
// textconv must. It returns the script's path and the marker's.
func hostileHook(t *testing.T) (hook, marker string) {
	t.Helper()
	dir := t.TempDir()
	hook = filepath.Join(dir, "hook.sh")
	marker = filepath.Join(dir, "ran")
	script := "#!/bin/sh\necho \"$0 $*\" >> '" + marker + "'\n" +
		"for a in \"$@\"; do if [ -f \"$a\" ]; then cat \"$a\"; exit 0; fi; done\ncat\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return hook, marker
}

// signHead replaces HEAD's commit with one that carries a (bogus) PGP
// signature, so that verifying signatures would run gpg.program.
func signHead(r *testRepo) {
	obj := r.run("cat-file", "commit", "HEAD")
	head, msg, _ := strings.Cut(obj, "\n\n")
	signed := head + "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n" + msg
	h := strings.TrimSpace(r.runStdin(r.dir, nil, signed, "hash-object", "-t", "commit", "-w", "--stdin"))
	r.run("update-ref", "refs/heads/main", h)
}

// A repository's own .git/config cannot make the history layer run a
// program. Each case first shows that a plain git command does run the
// hook with that configuration (so the case can fail), then runs every
// operation of the package and the provider and checks it did not.
func TestHostileConfigRunsNothing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		config  func(r *testRepo, hook string)
		control []string // a plain git command that runs the hook
	}{
		{"core.fsmonitor hook", func(r *testRepo, hook string) {
			r.run("config", "core.fsmonitor", hook)
		}, []string{"status", "--porcelain"}},
		{"filter clean, smudge and process", func(r *testRepo, hook string) {
			r.run("config", "filter.evil.clean", hook+" %f")
			r.run("config", "filter.evil.smudge", hook+" %f")
			r.run("config", "filter.evil.required", "true")
		}, []string{"diff", "HEAD", "--stat"}},
		{"filter with an odd name", func(r *testRepo, hook string) {
			r.run("config", "filter.odd=name.x.clean", hook+" %f")
		}, []string{"diff", "HEAD", "--stat"}},
		{"diff driver textconv and command", func(r *testRepo, hook string) {
			r.run("config", "diff.evil.textconv", hook)
			r.run("config", "diff.evil.command", hook)
		}, []string{"diff", "HEAD"}},
		{"diff.external", func(r *testRepo, hook string) {
			r.run("config", "diff.external", hook)
		}, []string{"diff", "HEAD"}},
		{"signature verification", func(r *testRepo, hook string) {
			signHead(r)
			r.run("config", "log.showSignature", "true")
			r.run("config", "gpg.program", hook)
		}, []string{"log", "-1"}},
		{"hooks path", func(r *testRepo, hook string) {
			hooks := filepath.Dir(hook)
			for _, name := range []string{"post-index-change", "post-checkout", "reference-transaction"} {
				if err := os.Symlink(hook, filepath.Join(hooks, name)); err != nil {
					t.Fatal(err)
				}
			}
			r.run("config", "core.hooksPath", hooks)
		}, []string{"update-ref", "refs/heads/probe", "HEAD"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			attrs := "*.txt filter=evil diff=evil\n*.md filter=odd=name.x\n"
			r.write(map[string]string{".gitattributes": attrs, "f.txt": "one\ntwo\n", "g.md": "g\n"})
			r.commit("first (#1)")
			r.write(map[string]string{"f.txt": "one\ntwo\nthree\n"})
			r.commit("second")
			hook, marker := hostileHook(t)
			tc.config(r, hook)
			// Stat-dirty and changed files make git read the work tree.
			time.Sleep(10 * time.Millisecond)
			r.write(map[string]string{"f.txt": "one\ntwo\nthree\nfour\n", "g.md": "g\nh\n", "u.txt": "untracked\n"})

			r.run(tc.control...)
			if _, err := os.Stat(marker); err != nil {
				t.Fatalf("control: plain git %s did not run the hook, so this case proves nothing", strings.Join(tc.control, " "))
			}
			os.Remove(marker)

			ctx := context.Background()
			repo := r.open(t, Options{})
			if _, err := repo.Log(ctx, "f.txt"); err != nil {
				t.Errorf("Log: %v", err)
			}
			if _, err := repo.Blame(ctx, "f.txt", 0, 0); err != nil {
				t.Errorf("Blame: %v", err)
			}
			if _, err := repo.Blame(ctx, "g.md", 0, 0); err != nil {
				t.Errorf("Blame: %v", err)
			}
			cs, err := repo.Changes(ctx, "HEAD~1")
			if err != nil {
				t.Errorf("Changes: %v", err)
			} else if len(cs.Changes) != 3 {
				t.Errorf("Changes = %+v, want f.txt, g.md and u.txt", cs.Changes)
			}
			p := New(Options{Dir: r.dir})
			for _, q := range []evidence.Query{{Path: "f.txt", Line: 3}, {Text: "what changed since HEAD~1?"}} {
				if _, err := p.Gather(ctx, q); err != nil {
					t.Errorf("Gather(%+v): %v", q, err)
				}
			}
			if b, err := os.ReadFile(marker); err == nil {
				t.Errorf("the repository's configuration ran a program:\n%s", b)
			}
		})
	}
}

// Configuration that would change what git prints does not break parsing:
// a UTF-16 log encoding, colour always on, relative diff paths.
func TestHostileConfigOutput(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"sub/f.txt": "one\n"})
	r.commit("Fix the thing (#4)")
	r.write(map[string]string{"sub/f.txt": "one\ntwo\n"})
	for k, v := range map[string]string{
		"i18n.logOutputEncoding": "UTF-16", "color.ui": "always", "diff.relative": "true",
		"log.showRoot": "false", "core.quotePath": "true", "log.follow": "true", "diff.renames": "false",
		"diff.noprefix": "true", "log.abbrevCommit": "true", "log.date": "relative", "log.mailmap": "false",
	} {
		r.run("config", k, v)
	}
	repo := r.open(t, Options{})
	h, err := repo.Log(context.Background(), "sub/f.txt")
	if err != nil || len(h.Entries) != 1 || h.Entries[0].PR == nil || h.Entries[0].PR.Number != 4 {
		t.Errorf("Log under hostile output configuration = %+v, %v", h, err)
	}
	cs, err := repo.Changes(context.Background(), "")
	if err != nil || len(cs.Changes) != 1 || cs.Changes[0].Path != "sub/f.txt" {
		t.Errorf("Changes under hostile output configuration = %+v, %v", cs, err)
	}
}

// The user's global configuration is not read (its fsmonitor hook does not
// run), while the user's default ignore file still hides untracked files.
func TestUserConfigIgnoredButIgnoreFileHonoured(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"f.txt": "one\n"})
	r.commit("first")
	hook, marker := hostileHook(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\tfsmonitor = "+hook+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "git", "ignore"), []byte("*.tmp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	r.write(map[string]string{"f.txt": "one\ntwo\n", "scratch.tmp": "x\n", "new.txt": "n\n"})
	cs, err := r.open(t, Options{}).Changes(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs.Changes {
		got = append(got, c.Path)
	}
	if strings.Join(got, " ") != "f.txt new.txt" {
		t.Errorf("changes = %v, want f.txt and new.txt (scratch.tmp ignored by the user's ignore file)", got)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("the user's global configuration ran a program:\n%s", b)
	}
}
