package history

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/trust"
	"github.com/google/go-cmp/cmp"
)

// historyRepo is a small repository with a merged pull request, a squash,
// a rename, uncommitted and untracked changes, and a tag.
func historyRepo(t *testing.T) *testRepo {
	r := newTestRepo(t)
	r.write(map[string]string{"svc/auth.go": lines(6, "auth"), "README.md": "# x\n"})
	r.commit("initial")
	r.run("tag", "v0.1.0")
	r.run("checkout", "-q", "-b", "token")
	r.write(map[string]string{"svc/auth.go": lines(8, "auth")})
	r.commit("Refresh tokens early", "Bob")
	r.run("checkout", "-q", "main")
	r.merge("token", "Merge pull request #42 from bob/token\n\nRefresh tokens before they expire")
	r.run("mv", "svc/auth.go", "svc/login.go")
	r.commit("Rename auth to login (#43)")
	r.write(map[string]string{"svc/login.go": lines(9, "auth"), "notes.txt": "todo\n"})
	return r
}

func TestProviderConformance(t *testing.T) {
	r := historyRepo(t)
	evidencetest.TestProvider(t, New(Options{Dir: r.dir}), r.dir,
		evidence.Query{Path: "svc/login.go"},
		evidence.Query{Path: "svc/login.go", Line: 7},
		evidence.Query{Path: "svc/login.go", Line: 9},
		evidence.Query{Path: "svc/auth.go"},
		evidence.Query{Path: "svc"},
		evidence.Query{Text: "what changed recently?"},
		evidence.Query{Text: "what changed since v0.1.0?"},
		evidence.Query{Text: "what changed since no-such-tag?"},
		evidence.Query{Kinds: []evidence.Kind{evidence.GitHistory}},
		evidence.Query{Path: "../outside.go"},
		evidence.Query{Text: "where is Login defined?"},
	)
	// Outside git, and in a shallow clone.
	evidencetest.TestProvider(t, New(Options{Dir: t.TempDir()}), t.TempDir(), evidence.Query{Path: "x.go"})
	clone := t.TempDir()
	r.runIn(clone, nil, "clone", "-q", "--depth", "1", "file://"+r.dir, ".")
	evidencetest.TestProvider(t, New(Options{Dir: clone}), clone, evidence.Query{Path: "svc/login.go", Line: 1})
}

func TestProviderFile(t *testing.T) {
	r := historyRepo(t)
	resp, err := New(Options{Dir: r.dir}).Gather(context.Background(), evidence.Query{Path: "svc/login.go", Line: 7})
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Loc, Excerpt string
		PR, Via      string
	}
	var got []rec
	for _, r := range resp.Records {
		if r.Kind != evidence.GitHistory || r.Provenance != trust.GitHistory || r.Trust != trust.Structural || r.Provider != ProviderName {
			t.Errorf("record %+v is not a structural git-history record of the history provider", r)
		}
		a := r.Metadata.Attributes
		ex := r.Metadata.Excerpt
		// Drop the hash and date from the excerpt, which vary.
		if i := strings.Index(ex, " 2024-01-01 "); i >= 0 {
			j := strings.LastIndex(ex[:i], " ")
			ex = ex[:j+1] + "…" + ex[i+11:]
		}
		got = append(got, rec{Loc: r.Location(), Excerpt: ex, PR: a["pr"], Via: a["pr_via"]})
	}
	want := []rec{
		{Loc: "svc/login.go:1:1-1:1", Excerpt: "svc/login.go: 3 recent commits by Ada, Bob; last … Ada: Rename auth to login (#43) (PR #43: Rename auth to login)", PR: "43", Via: "squash"},
		{Excerpt: "svc/login.go: renamed from svc/auth.go in … Ada: Rename auth to login (#43) (PR #43: Rename auth to login)", PR: "43", Via: "squash"},
		{Excerpt: "svc/auth.go: modified in … Bob: Refresh tokens early (PR #42: Refresh tokens before they expire)", PR: "42", Via: "merge"},
		{Excerpt: "svc/auth.go: added in … Ada: initial"},
		{Loc: "svc/login.go:7:1-7:7", Excerpt: "svc/login.go:7-7 last changed by … Bob: Refresh tokens early (PR #42: Refresh tokens before they expire)", PR: "42", Via: "merge"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestProviderWhatChanged(t *testing.T) {
	r := historyRepo(t)
	p := New(Options{Dir: r.dir})
	for _, tc := range []struct {
		q    evidence.Query
		want []string // excerpts' first words, in order
	}{
		{evidence.Query{Text: "what changed?"}, []string{"notes.txt:", "svc/login.go:", "…Rename", "…Merge", "…Refresh", "…initial"}},
		{evidence.Query{Text: "What changed since v0.1.0?"}, []string{"notes.txt:", "svc/login.go:", "…Rename", "…Merge", "…Refresh"}},
		{evidence.Query{Text: "where is Login defined?"}, nil},
		{evidence.Query{Text: "what changed?", Kinds: []evidence.Kind{evidence.Definition}}, nil},
	} {
		resp, err := p.Gather(context.Background(), tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range resp.Records {
			ex := r.Metadata.Excerpt
			if r.Metadata.Attributes["status"] == "" { // a commit: its subject
				got = append(got, "…"+strings.Fields(r.Metadata.Attributes["subject"])[0])
				continue
			}
			got = append(got, strings.Fields(ex)[0])
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Gather(%q) (-want +got):\n%s", tc.q.Text, diff)
		}
	}
}

func TestProviderUnavailable(t *testing.T) {
	r := historyRepo(t)
	clone := t.TempDir()
	r.runIn(clone, nil, "clone", "-q", "--depth", "1", "file://"+r.dir, ".")
	for _, tc := range []struct {
		name   string
		opts   Options
		q      evidence.Query
		reason string
	}{
		{"outside git", Options{Dir: t.TempDir()}, evidence.Query{Path: "x.go"}, "the project is not in a git work tree"},
		{"shallow", Options{Dir: clone}, evidence.Query{Path: "svc/login.go"}, "the repository is a shallow clone, so its history is incomplete"},
		{"outside the root", Options{Dir: r.dir}, evidence.Query{Path: "../../etc/passwd"}, "the path is outside the project root"},
		{"no git", Options{Dir: r.dir, Git: "/nonexistent/git"}, evidence.Query{Path: "svc/login.go"}, "git is not installed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, reports := evidence.Collect(context.Background(), tc.q, []evidence.Provider{New(tc.opts)}, evidence.CollectOptions{})
			rep := reports[0]
			if rep.State != evidence.Unavailable || rep.Reason == "" || !strings.HasPrefix(rep.Reason, tc.reason) || rep.Guidance == "" {
				t.Errorf("report = %+v, want unavailable: %s, with guidance", rep, tc.reason)
			}
		})
	}
	// A cancelled context is not dressed up as unavailable history.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(Options{Dir: r.dir}).Gather(ctx, evidence.Query{Path: "svc/login.go"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Gather on a cancelled context = %v, want context.Canceled", err)
	}
}

func TestAsksWhatChanged(t *testing.T) {
	for text, want := range map[string]bool{
		"what changed?":                  true,
		"What changed since v1.2?":       true,
		"recent commits":                 true,
		"show me the git log":            true,
		"who touched this last":          true,
		"where is AuthService defined?":  false,
		"who calls refresh_token?":       false,
		"is this method deprecated":      false,
		"find usages of the old api":     false,
		"what are the uncommitted edits": true,
	} {
		if got := AsksWhatChanged(text); got != want {
			t.Errorf("AsksWhatChanged(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestSinceRevision(t *testing.T) {
	for text, want := range map[string]string{
		"what changed since v1.2.0?":     "v1.2.0",
		"changes since `main`":           "main",
		"Since HEAD~3, what moved":       "HEAD~3",
		"what changed since --output=/x": "",
		"what changed":                   "",
		"since (origin/main)":            "origin/main",
		"since a;rm -rf /":               "",
	} {
		if got := SinceRevision(text); got != want {
			t.Errorf("SinceRevision(%q) = %q, want %q", text, got, want)
		}
	}
}
