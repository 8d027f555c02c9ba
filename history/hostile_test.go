package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
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

// failingHook writes a script that records each run in a marker file and
// fails at once: a transport's program that must not hang the control.
func failingHook(t *testing.T) (hook, marker string) {
	t.Helper()
	dir := t.TempDir()
	hook = filepath.Join(dir, "hook.sh")
	marker = filepath.Join(dir, "ran")
	script := "#!/bin/sh\necho \"$0 $*\" >> '" + marker + "'\nexit 1\n"
	must(t, os.WriteFile(hook, []byte(script), 0o755))
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

// exercise runs every operation of the package and of the provider on
// the repository at dir, and returns everything they printed and every
// error, as one text to search for a canary, and the error of Open (nil
// when the repository opened).
func exercise(t *testing.T, dir string, opts Options) (all string, openErr error) {
	t.Helper()
	ctx := context.Background()
	opts.Dir = dir
	var b strings.Builder
	note := func(v any, err error) {
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
			return
		}
		data, _ := json.Marshal(v)
		b.Write(append(data, '\n'))
	}
	p := New(opts)
	for _, q := range []evidence.Query{{Path: "f.txt", Line: 3}, {Path: "g.md", Line: 1}, {Text: "what changed since HEAD~1?"}} {
		resp, err := p.Gather(ctx, q)
		note(resp, err)
	}
	repo, err := Open(ctx, opts)
	if err != nil {
		note(nil, err)
		return b.String(), err
	}
	defer repo.Close()
	note(repo.Log(ctx, "f.txt"))
	note(repo.Blame(ctx, "f.txt", 0, 0))
	note(repo.Blame(ctx, "g.md", 0, 0))
	note(repo.Changes(ctx, "HEAD~1"))
	note(repo.ChangedLines(ctx, "HEAD~1"))
	return b.String(), nil
}

// tryGit runs a plain git command (the test's environment, the
// repository's configuration obeyed) and returns what it printed on both
// streams, failing or not: a control that shows an attack works.
func (r *testRepo) tryGit(dir string, args ...string) string {
	r.t.Helper()
	res, _ := safeexec.Run(context.Background(), safeexec.Invocation{
		Path: r.git, Args: args, Dir: dir, Env: r.env(), Timeout: time.Minute})
	return string(res.Stdout) + string(res.Stderr)
}

// A hostile case is a configuration that makes plain git run a program
// (control), built into a fresh repository each time it is tried.
type hostileCase struct {
	name    string
	config  func(t *testing.T, r *testRepo, hook string)
	control []string // a plain git command that runs the hook
	// declines are the keys an untrusted Open names when it declines;
	// none means the keys are neutralised and every operation works.
	declines []string
}

// hostileRepo builds the repository every hostile case starts from: a
// filter and diff driver named for *.txt and *.md, two commits, and
// stat-dirty, changed and untracked files, so that git reads the work
// tree.
func hostileRepo(t *testing.T, tc hostileCase) (r *testRepo, marker string) {
	t.Helper()
	r = newTestRepo(t)
	attrs := "*.txt filter=evil diff=evil\n*.md filter=odd=name.x diff=Evil\n"
	r.write(map[string]string{".gitattributes": attrs, "f.txt": "one\ntwo\n", "g.md": "g\n"})
	r.commit("first (#1)")
	r.write(map[string]string{"f.txt": "one\ntwo\nthree\n"})
	r.commit("second")
	hook, marker := hostileHook(t)
	tc.config(t, r, hook)
	time.Sleep(10 * time.Millisecond)
	r.write(map[string]string{"f.txt": "one\ntwo\nthree\nfour\n", "g.md": "g\nh\n", "u.txt": "untracked\n"})
	return r, marker
}

// appendConfig appends raw text to the repository's .git/config, for
// syntax git config would not write itself.
func (r *testRepo) appendConfig(text string) {
	r.t.Helper()
	f, err := os.OpenFile(filepath.Join(r.dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		r.t.Fatal(err)
	}
}

var hostileCases = []hostileCase{
	{name: "core.fsmonitor hook", config: func(t *testing.T, r *testRepo, hook string) {
		r.run("config", "core.fsmonitor", hook)
	}, control: []string{"status", "--porcelain"}},
	{name: "filter clean, smudge and process", config: func(t *testing.T, r *testRepo, hook string) {
		r.run("config", "filter.evil.clean", hook+" %f")
		r.run("config", "filter.evil.smudge", hook+" %f")
		r.run("config", "filter.evil.required", "true")
	}, control: []string{"diff", "HEAD", "--stat"}},
	{name: "filter with an odd name", config: func(t *testing.T, r *testRepo, hook string) {
		r.run("config", "filter.odd=name.x.clean", hook+" %f")
	}, control: []string{"diff", "HEAD", "--stat"}},
	{name: "filter in upper case, odd spaces and a continuation line", config: func(t *testing.T, r *testRepo, hook string) {
		r.appendConfig("[FILTER   \"evil\"]  CLEAN\t=  " + hook[:4] + "\\\n" + hook[4:] + " %f ; a comment\n")
	}, control: []string{"diff", "HEAD", "--stat"}},
	{name: "diff driver textconv and command", config: func(t *testing.T, r *testRepo, hook string) {
		r.run("config", "diff.evil.textconv", hook)
		r.run("config", "diff.evil.command", hook)
		r.run("config", "diff.Evil.textconv", hook)
	}, control: []string{"diff", "HEAD"}},
	{name: "diff.external", config: func(t *testing.T, r *testRepo, hook string) {
		r.run("config", "diff.external", hook)
	}, control: []string{"diff", "HEAD"}},
	{name: "signature verification", config: func(t *testing.T, r *testRepo, hook string) {
		signHead(r)
		r.run("config", "log.showSignature", "true")
		r.run("config", "gpg.program", hook)
	}, control: []string{"log", "-1"}},
	{name: "hooks path", config: func(t *testing.T, r *testRepo, hook string) {
		hooks := filepath.Dir(hook)
		for _, name := range []string{"post-index-change", "post-checkout", "reference-transaction"} {
			if err := os.Symlink(hook, filepath.Join(hooks, name)); err != nil {
				t.Fatal(err)
			}
		}
		r.run("config", "core.hooksPath", hooks)
	}, control: []string{"update-ref", "refs/heads/probe", "HEAD"}},
	{name: "a driver named in info/attributes", config: func(t *testing.T, r *testRepo, hook string) {
		testtool.WriteFiles(t, filepath.Join(r.dir, ".git"), map[string]string{"info/attributes": "*.md filter=inner\n"})
		r.run("config", "filter.inner.clean", hook+" %f")
	}, control: []string{"diff", "HEAD", "--stat"}},
	{name: "a driver in config.worktree", config: func(t *testing.T, r *testRepo, hook string) {
		r.run("config", "extensions.worktreeConfig", "true")
		r.run("config", "--worktree", "filter.evil.clean", hook+" %f")
	}, control: []string{"diff", "HEAD", "--stat"}},
	{name: "a driver in an included file", config: func(t *testing.T, r *testRepo, hook string) {
		inc := filepath.Join(t.TempDir(), "inc")
		if err := os.WriteFile(inc, []byte("[filter \"evil\"]\n\tclean = "+hook+" %f\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r.run("config", "include.path", inc)
	}, control: []string{"diff", "HEAD", "--stat"}, declines: []string{"include.path"}},
	{name: "a driver in a conditionally included file", config: func(t *testing.T, r *testRepo, hook string) {
		inc := filepath.Join(t.TempDir(), "inc")
		if err := os.WriteFile(inc, []byte("[diff \"evil\"]\n\ttextconv = "+hook+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r.appendConfig("[includeIf \"gitdir:/\"]\n\tpath = " + inc + "\n")
	}, control: []string{"diff", "HEAD"}, declines: []string{"includeif.gitdir:/.path"}},
	{name: "a driver after a megabyte of driver names", config: func(t *testing.T, r *testRepo, hook string) {
		// git config --name-only --get-regexp ^filter\. printed more than
		// the 1 MiB it was read with, so the list was cut before "evil".
		r.appendConfig("[filter]\n" + strings.Repeat("\tclean=x\n", (1<<20)/len("filter.clean\x00")+1) +
			"[filter \"evil\"]\n\tclean = " + hook + " %f\n")
	}, control: []string{"diff", "HEAD", "--stat"}, declines: []string{"filter.clean"}},
	{name: "a driver past a megabyte of configuration", config: func(t *testing.T, r *testRepo, hook string) {
		r.appendConfig("[x]\n" + strings.Repeat("\tpad = 0123456789012345678901234567890123456789\n", (1<<20)/46+1) +
			"[filter \"evil\"]\n\tclean = " + hook + " %f\n")
	}, control: []string{"diff", "HEAD", "--stat"}, declines: []string{"larger than"}},
	{name: "more drivers than are overridden", config: func(t *testing.T, r *testRepo, hook string) {
		var b strings.Builder
		for i := range maxOverrides {
			fmt.Fprintf(&b, "[filter \"p%d\"]\n\trequired = false\n", i)
		}
		r.appendConfig(b.String() + "[filter \"evil\"]\n\tclean = " + hook + " %f\n")
	}, control: []string{"diff", "HEAD", "--stat"}, declines: []string{"more than"}},
}

// A repository's own .git/config cannot make the history layer run a
// program. Each case first shows that a plain git command does run the
// hook with that configuration (so the case can fail), then runs every
// operation of the package and the provider, untrusted and trusted, and
// checks that none ran it: untrusted, the layer works with the setting
// neutralised or declines naming it; trusted, it works (or, past a size
// it cannot check, still declines), with every override in place.
func TestHostileConfigRunsNothing(t *testing.T) {
	for _, tc := range hostileCases {
		for _, trusted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/trusted=%v", tc.name, trusted), func(t *testing.T) {
				t.Parallel() // each case builds its own repositories
				r, marker := hostileRepo(t, tc)
				r.tryGit(r.dir, tc.control...)
				if _, err := os.Stat(marker); err != nil {
					t.Fatalf("control: plain git %s did not run the hook, so this case proves nothing", strings.Join(tc.control, " "))
				}
				os.Remove(marker)

				all, err := exercise(t, r.dir, Options{TrustRepoConfig: trusted})
				switch {
				case len(tc.declines) > 0 && (!trusted || tc.declines[0] == "larger than" || tc.declines[0] == "more than"):
					if err == nil {
						t.Fatalf("Open succeeded; want it to decline naming %v", tc.declines)
					}
					var ce *ConfigError
					if !errors.As(err, &ce) {
						t.Fatalf("Open: %v, want a *ConfigError", err)
					}
					for _, k := range tc.declines {
						if !strings.Contains(err.Error(), k) {
							t.Errorf("the decline does not name %q: %v", k, err)
						}
					}
				case err != nil:
					t.Fatalf("Open: %v", err)
				case strings.Contains(all, "error: "):
					t.Errorf("an operation failed:\n%s", all)
				}
				if b, err := os.ReadFile(marker); err == nil {
					t.Errorf("the repository's configuration ran a program:\n%s", b)
				}
			})
		}
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

// partialClone returns a blob:none partial clone, made over file:// from
// a bare copy of a repository with three commits of f.txt (so the blobs
// of the first two are missing from the clone), and the bare
// repository's path. configure runs on the clone before it is returned.
func partialClone(t *testing.T, configure func(r *testRepo, clone, bare string)) (r *testRepo, clone, bare string) {
	t.Helper()
	r = newTestRepo(t)
	r.write(map[string]string{"f.txt": "one\n", "g.md": "g\n"})
	r.commit("first (#1)")
	r.write(map[string]string{"f.txt": "one\ntwo\n"})
	r.commit("second")
	r.write(map[string]string{"f.txt": "one\ntwo\nthree\n"})
	r.commit("third")
	bare = filepath.Join(t.TempDir(), "bare.git")
	r.run("clone", "-q", "--bare", r.dir, bare)
	r.runIn(bare, nil, "config", "uploadpack.allowFilter", "true")
	r.runIn(bare, nil, "config", "uploadpack.allowAnySHA1InWant", "true")
	clone = filepath.Join(t.TempDir(), "clone")
	r.run("clone", "-q", "--filter=blob:none", "file://"+bare, clone)
	if out := r.runIn(clone, nil, "rev-list", "--objects", "--missing=print", "HEAD"); !strings.Contains(out, "\n?") && !strings.HasPrefix(out, "?") {
		t.Fatalf("the partial clone misses no blob:\n%s", out)
	}
	configure(r, clone, bare)
	return r, clone, bare
}

// A partial clone's lazy fetch runs nothing, trusted or not: the
// configuration the issue describes (a promisor remote whose uploadpack
// is a program, the file protocol allowed; or an ext:: URL, the ext
// protocol allowed) runs its program under plain git, and under the
// history layer declines untrusted and fetches nothing trusted.
func TestHostilePartialClone(t *testing.T) {
	for _, tc := range []struct {
		name   string
		attack func(r *testRepo, clone, bare, hook string)
	}{
		{"uploadpack program over file://", func(r *testRepo, clone, bare, hook string) {
			r.runIn(clone, nil, "config", "remote.origin.uploadpack", hook)
			r.runIn(clone, nil, "config", "protocol.file.allow", "always")
		}},
		{"ext:: URL", func(r *testRepo, clone, bare, hook string) {
			r.runIn(clone, nil, "config", "remote.origin.url", "ext::"+hook+" "+bare)
			r.runIn(clone, nil, "config", "protocol.ext.allow", "always")
			r.runIn(clone, nil, "config", "protocol.allow", "always")
		}},
		{"uploadpack, the file protocol allowed from an included file", func(r *testRepo, clone, bare, hook string) {
			inc := filepath.Join(filepath.Dir(hook), "inc")
			if err := os.WriteFile(inc, []byte("[protocol]\n\tallow = always\n[protocol \"file\"]\n\tallow = always\n"), 0o644); err != nil {
				r.t.Fatal(err)
			}
			r.runIn(clone, nil, "config", "remote.origin.uploadpack", hook)
			r.runIn(clone, nil, "config", "include.path", inc)
		}},
	} {
		for _, trusted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/trusted=%v", tc.name, trusted), func(t *testing.T) {
				t.Parallel() // each case builds its own repositories
				hook, marker := failingHook(t)
				r, clone, _ := partialClone(t, func(r *testRepo, clone, bare string) { tc.attack(r, clone, bare, hook) })
				r.tryGit(clone, "blame", "f.txt")
				if _, err := os.Stat(marker); err != nil {
					t.Fatal("control: plain git blame did not run the program, so this case proves nothing")
				}
				os.Remove(marker)
				_, clone, _ = partialClone(t, func(r *testRepo, clone, bare string) { tc.attack(r, clone, bare, hook) })

				all, err := exercise(t, clone, Options{TrustRepoConfig: trusted})
				if !trusted {
					if !errors.Is(err, ErrUntrustedConfig) || !strings.Contains(err.Error(), "remote.origin.promisor") {
						t.Errorf("untrusted Open: %v; want a decline naming remote.origin.promisor", err)
					}
				} else if err != nil {
					t.Errorf("trusted Open: %v", err)
				}
				if b, err := os.ReadFile(marker); err == nil {
					t.Errorf("the lazy fetch ran a program:\n%s\n%s", b, all)
				} else if trusted {
					t.Logf("%s", all)
				}
				if out := r.runIn(clone, nil, "rev-list", "--objects", "--missing=print", "HEAD"); !strings.Contains(out, "\n?") {
					t.Errorf("a missing blob was fetched:\n%s", out)
				}
			})
		}
	}
}

// A real partial clone declines untrusted, and trusted answers what its
// objects can answer without fetching one.
func TestPartialCloneTrusted(t *testing.T) {
	r, clone, _ := partialClone(t, func(*testRepo, string, string) {})
	if _, err := Open(context.Background(), Options{Dir: clone}); !errors.Is(err, ErrUntrustedConfig) {
		t.Fatalf("untrusted Open: %v, want ErrUntrustedConfig", err)
	}
	repo := (&testRepo{t: t, git: r.git, dir: clone}).open(t, Options{TrustRepoConfig: true})
	ctx := context.Background()
	h, err := repo.Log(ctx, "f.txt")
	if err != nil || len(h.Entries) != 3 {
		t.Errorf("Log = %+v, %v; want three commits", h, err)
	}
	if err := os.WriteFile(filepath.Join(clone, "f.txt"), []byte("one\ntwo\nthree\nfour\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := repo.Changes(ctx, "")
	if err != nil || len(cs.Changes) != 1 {
		t.Errorf("Changes = %+v, %v; want f.txt", cs, err)
	}
	// Blame needs the missing blobs: it fails rather than fetching them.
	if _, err := repo.Blame(ctx, "f.txt", 1, 1); err == nil {
		t.Log("blame answered without the missing blobs")
	}
	if out := r.runIn(clone, nil, "rev-list", "--objects", "--missing=print", "HEAD"); !strings.Contains(out, "\n?") {
		t.Errorf("a missing blob was fetched:\n%s", out)
	}
}

// canary is the content of a file of the user's that a repository's
// configuration names for git to read; it must appear in no output.
const canary = "Canary Name CANARY-7f3a9 <ada@example.com>\n"

// A repository's configuration cannot make the history layer read a file
// of the user's into what it prints: each case shows that plain git does
// print the canary, then checks that no output or error of the layer,
// untrusted or trusted, holds it.
func TestHostileConfigReadsNothing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		config  func(t *testing.T, r *testRepo, secret string)
		control []string
		// declines is the key an untrusted Open names; "" when the
		// setting is neutralised.
		declines string
	}{
		{"blame.ignoreRevsFile", func(t *testing.T, r *testRepo, secret string) {
			r.run("config", "blame.ignoreRevsFile", secret)
		}, []string{"blame", "f.txt"}, ""},
		{"blame.ignoreRevsFile twice", func(t *testing.T, r *testRepo, secret string) {
			r.run("config", "--add", "blame.ignoreRevsFile", secret)
			r.run("config", "--add", "blame.ignoreRevsFile", "")
		}, []string{"blame", "f.txt"}, ""},
		{"mailmap.file", func(t *testing.T, r *testRepo, secret string) {
			r.run("config", "mailmap.file", secret)
		}, []string{"log", "-1", "--format=%aN"}, ""},
		{"core.attributesFile", func(t *testing.T, r *testRepo, secret string) {
			must(t, os.WriteFile(secret, []byte("f.txt "+strings.Fields(canary)[2]+"\n"), 0o600))
			r.run("config", "core.attributesFile", secret)
		}, []string{"check-attr", "-a", "f.txt"}, ""},
		{"include.path", func(t *testing.T, r *testRepo, secret string) {
			must(t, os.WriteFile(secret, []byte("[user]\n\tname = "+strings.TrimSpace(canary)+"\n"), 0o600))
			r.run("config", "include.path", secret)
		}, []string{"config", "user.name"}, "include.path"},
		{"info/attributes as a symbolic link", func(t *testing.T, r *testRepo, secret string) {
			must(t, os.WriteFile(secret, []byte("f.txt "+strings.Fields(canary)[2]+"\n"), 0o600))
			must(t, os.MkdirAll(filepath.Join(r.dir, ".git", "info"), 0o755))
			must(t, os.Symlink(secret, filepath.Join(r.dir, ".git", "info", "attributes")))
		}, []string{"check-attr", "-a", "f.txt"}, "info/attributes"},
		{".git/config as a symbolic link", func(t *testing.T, r *testRepo, secret string) {
			cfg := filepath.Join(r.dir, ".git", "config")
			data, err := os.ReadFile(cfg)
			must(t, err)
			must(t, os.WriteFile(secret, append(data, "[user]\n\tname = "+strings.TrimSpace(canary)+"\n"...), 0o600))
			must(t, os.Remove(cfg))
			must(t, os.Symlink(secret, cfg))
		}, []string{"config", "user.name"}, "config"},
	} {
		for _, trusted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/trusted=%v", tc.name, trusted), func(t *testing.T) {
				t.Parallel() // each case builds its own repositories
				secret := filepath.Join(t.TempDir(), "secret")
				must(t, os.WriteFile(secret, []byte(canary), 0o600))
				r, _ := hostileRepo(t, hostileCase{config: func(t *testing.T, r *testRepo, _ string) { tc.config(t, r, secret) }})
				if out := r.tryGit(r.dir, tc.control...); !strings.Contains(out, "CANARY-7f3a9") {
					t.Fatalf("control: plain git %s did not print the canary, so this case proves nothing:\n%s", strings.Join(tc.control, " "), out)
				}
				all, err := exercise(t, r.dir, Options{TrustRepoConfig: trusted})
				switch {
				case tc.declines != "" && !trusted:
					if !errors.Is(err, ErrUntrustedConfig) || !strings.Contains(err.Error(), tc.declines) {
						t.Errorf("untrusted Open: %v; want a decline naming %s", err, tc.declines)
					}
				case err != nil:
					t.Errorf("Open: %v", err)
				}
				if strings.Contains(all, "CANARY-7f3a9") {
					t.Errorf("the canary is in the layer's output:\n%s", all)
				}
			})
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Settings that can name a program, a file or a fetch, and that no
// override neutralises, make an untrusted Open decline with a
// *ConfigError naming them (matched by ErrUntrustedConfig), and
// CheckConfig lists them; trusted, git runs with them. A change of value
// changes the digest a trust record names.
func TestRiskyConfigDeclines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, r *testRepo)
		key   string
	}{
		{"core.sshCommand", func(t *testing.T, r *testRepo) { r.run("config", "core.sshCommand", "/tmp/x") }, "core.sshcommand"},
		{"core.askPass", func(t *testing.T, r *testRepo) { r.run("config", "core.askPass", "/tmp/x") }, "core.askpass"},
		{"credential.helper", func(t *testing.T, r *testRepo) { r.run("config", "credential.helper", "!/tmp/x") }, "credential.helper"},
		{"remote vcs helper", func(t *testing.T, r *testRepo) { r.run("config", "remote.origin.vcs", "evil") }, "remote.origin.vcs"},
		{"remote proxy", func(t *testing.T, r *testRepo) { r.run("config", "remote.origin.proxy", "http://x") }, "remote.origin.proxy"},
		{"a promisor remote", func(t *testing.T, r *testRepo) { r.run("config", "remote.origin.promisor", "true") }, "remote.origin.promisor"},
		{"extensions.partialClone", func(t *testing.T, r *testRepo) {
			r.run("config", "core.repositoryformatversion", "1")
			r.run("config", "extensions.partialClone", "origin")
		}, "extensions.partialclone"},
		{"submodule update command", func(t *testing.T, r *testRepo) { r.run("config", "submodule.s.update", "!/tmp/x") }, "submodule.s.update"},
		{"an unknown key", func(t *testing.T, r *testRepo) { r.run("config", "sendemail.smtpServer", "/tmp/x") }, "sendemail.smtpserver"},
		{"a key before any section", func(t *testing.T, r *testRepo) { r.appendConfig("\n"); prependConfig(t, r, "fsmonitor = /tmp/x\n") }, "fsmonitor"},
		{"core.worktree elsewhere", func(t *testing.T, r *testRepo) { r.run("config", "core.worktree", t.TempDir()) }, "core.worktree"},
		{"borrowed objects", func(t *testing.T, r *testRepo) {
			other := newTestRepo(t)
			testtool.WriteFiles(t, filepath.Join(r.dir, ".git"), map[string]string{"objects/info/alternates": filepath.Join(other.dir, ".git", "objects") + "\n"})
		}, "objects/info/alternates"},
		{"a commondir", func(t *testing.T, r *testRepo) {
			other := newTestRepo(t)
			testtool.WriteFiles(t, filepath.Join(r.dir, ".git"), map[string]string{"commondir": filepath.Join(other.dir, ".git") + "\n"})
		}, "commondir"},
		{"a .git file naming another repository", func(t *testing.T, r *testRepo) {
			other := newTestRepo(t)
			other.write(map[string]string{"f.txt": "x\n"})
			other.commit("other")
			must(t, os.RemoveAll(filepath.Join(r.dir, ".git")))
			must(t, os.WriteFile(filepath.Join(r.dir, ".git"), []byte("gitdir: "+filepath.Join(other.dir, ".git")+"\n"), 0o644))
		}, ".git"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.write(map[string]string{"f.txt": "one\n"})
			r.commit("first")
			tc.setup(t, r)
			check, err := CheckConfig(r.dir)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, k := range check.Risks {
				keys = append(keys, k.Key)
			}
			if !slices.Contains(keys, tc.key) {
				t.Errorf("CheckConfig risks = %v, want %s among them", keys, tc.key)
			}
			if !strings.HasPrefix(check.Digest(), "sha256:") {
				t.Errorf("Digest = %q", check.Digest())
			}
			_, err = Open(context.Background(), Options{Dir: r.dir})
			var ce *ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, ErrUntrustedConfig) || errors.Is(err, ErrBadConfig) {
				t.Fatalf("untrusted Open: %v; want a *ConfigError matching ErrUntrustedConfig", err)
			}
			for _, want := range []string{tc.key, "cortex trust --show", "cortex trust`"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the decline does not say %q: %v", want, err)
				}
			}
			repo, err := Open(context.Background(), Options{Dir: r.dir, TrustRepoConfig: true})
			if errors.As(err, &ce) {
				t.Errorf("trusted Open: %v", err)
			}
			if err == nil {
				repo.Close()
			}
		})
	}
}

// prependConfig puts text before the first line of .git/config.
func prependConfig(t *testing.T, r *testRepo, text string) {
	f := filepath.Join(r.dir, ".git", "config")
	data, err := os.ReadFile(f)
	must(t, err)
	must(t, os.WriteFile(f, append([]byte(text), data...), 0o644))
}

// A change to a risky setting's value changes the digest; a change to an
// inert one does not.
func TestConfigDigest(t *testing.T) {
	r := newTestRepo(t)
	r.run("config", "core.sshCommand", "ssh -i a")
	digest := func() string {
		c, err := CheckConfig(r.dir)
		must(t, err)
		return c.Digest()
	}
	d1 := digest()
	r.run("config", "branch.main.remote", "origin")
	r.run("config", "filter.lfs.clean", "git-lfs clean -- %f")
	if d2 := digest(); d2 != d1 {
		t.Errorf("an inert or neutralised key changed the digest: %s, then %s", d1, d2)
	}
	r.run("config", "core.sshCommand", "ssh -i b")
	if d3 := digest(); d3 == d1 {
		t.Errorf("a new value of core.sshCommand kept the digest %s", d3)
	}
	r.run("config", "--unset", "core.sshCommand")
	if d4 := digest(); d4 != "" {
		t.Errorf("without risks Digest = %q, want empty", d4)
	}
}

// What a plain clone writes, and the settings users commonly give a
// repository (an LFS filter among them), need no trust: an untrusted Open
// works and every operation answers.
func TestOrdinaryConfigNeedsNoTrust(t *testing.T) {
	src, _ := hostileRepo(t, hostileCase{config: func(*testing.T, *testRepo, string) {}})
	src.run("add", "-A")
	src.commitStaged("third")
	clone := filepath.Join(t.TempDir(), "clone")
	src.run("clone", "-q", "file://"+src.dir, clone)
	r := &testRepo{t: t, git: src.git, dir: clone, tick: src.tick}
	for _, kv := range [][2]string{
		{"core.autocrlf", "input"}, {"core.eol", "lf"}, {"pull.rebase", "true"}, {"push.default", "simple"},
		{"user.name", "Ada"}, {"user.email", "ada@example.com"}, {"user.signingKey", "~/.ssh/id_ed25519.pub"},
		{"gpg.format", "ssh"}, {"commit.gpgSign", "true"}, {"init.defaultBranch", "main"}, {"color.ui", "auto"},
		{"color.diff.meta", "blue"}, {"alias.st", "!git status"}, {"rerere.enabled", "true"}, {"fetch.prune", "true"},
		{"branch.main.rebase", "true"}, {"branch.main.vscode-merge-base", "origin/main"},
		{"remote.origin.gh-resolved", "base"}, {"remote.upstream.url", "https://example.com/x.git"},
		{"remote.upstream.fetch", "+refs/heads/*:refs/remotes/upstream/*"},
		{"filter.lfs.clean", "git-lfs clean -- %f"}, {"filter.lfs.smudge", "git-lfs smudge -- %f"},
		{"filter.lfs.process", "git-lfs filter-process"}, {"filter.lfs.required", "true"},
		{"lfs.repositoryformatversion", "0"}, {"diff.algorithm", "histogram"}, {"merge.conflictStyle", "zdiff3"},
		{"blame.ignoreRevsFile", ".git-blame-ignore-revs"}, {"submodule.active", "."}, {"maintenance.auto", "false"},
		{"log.date", "iso"}, {"status.short", "true"}, {"core.excludesFile", "~/.gitignore"},
	} {
		r.run("config", kv[0], kv[1])
	}
	check, err := CheckConfig(clone)
	if err != nil {
		t.Fatal(err)
	}
	if len(check.Risks) != 0 || check.Digest() != "" {
		t.Errorf("risks = %v, want none", check.Risks)
	}
	var neutral []string
	for _, n := range check.Neutralised {
		neutral = append(neutral, n.Key)
	}
	want := []string{"core.excludesfile", "user.signingkey", "filter.lfs.clean", "filter.lfs.smudge", "filter.lfs.process",
		"filter.lfs.required", "blame.ignorerevsfile"}
	if diff := cmp.Diff(want, neutral); diff != "" {
		t.Errorf("neutralised (-want +got):\n%s", diff)
	}
	r.write(map[string]string{"f.txt": "one\ntwo\nthree\nfour\nfive\n"})
	all, err := exercise(t, clone, Options{})
	if err != nil || strings.Contains(all, "error: ") {
		t.Errorf("untrusted, an ordinary clone's history: %v\n%s", err, all)
	}
}

// A linked worktree and a submodule keep their git directories elsewhere,
// and name their work trees back: neither needs trust.
func TestWorktreeAndSubmoduleNeedNoTrust(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"f.txt": "one\n"})
	r.commit("first")
	wt := filepath.Join(t.TempDir(), "wt")
	r.run("worktree", "add", "-q", wt)
	sub := newTestRepo(t)
	sub.write(map[string]string{"s.txt": "s\n"})
	sub.commit("sub")
	r.runIn(r.dir, []string{"GIT_ALLOW_PROTOCOL=file"}, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "sub")
	r.commit("add sub")
	for _, dir := range []string{wt, filepath.Join(r.dir, "sub")} {
		check, err := CheckConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(check.Risks) != 0 {
			t.Errorf("%s: risks %v, want none", dir, check.Risks)
		}
		if check.GitDir == filepath.Join(dir, ".git") {
			t.Errorf("%s: the git directory is its .git, not elsewhere: the case proves nothing", dir)
		}
		repo, err := Open(context.Background(), Options{Dir: dir})
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		repo.Close()
	}
}

// Errors carry at most a short prefix of what git said, and no line of a
// kind that quotes a file.
func TestQuoteStderr(t *testing.T) {
	for in, want := range map[string]string{
		"fatal: invalid object name: CANARY\n":                          "[a message that would quote a file's content, withheld]",
		"warning: x\nfatal: could not open object name list: /secret\n": "warning: x / [a message that would quote a file's content, withheld]",
		"fatal: bad numeric config value 'CANARY' for 'core.abbrev'\n":  "[a message that would quote a file's content, withheld]",
		"fatal: not a git repository\n\n\nmore\nand more\n":             "fatal: not a git repository / more",
		"fatal: \x1b[31mred\x1b[0m\n":                                   "fatal: [31mred[0m",
		strings.Repeat("x", 500):                                        strings.Repeat("x", 200) + "…",
	} {
		if got := quoteStderr([]byte(in)); got != want {
			t.Errorf("quoteStderr(%q) = %q, want %q", in, got, want)
		}
	}
}
