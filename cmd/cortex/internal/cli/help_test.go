package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every command has examples, and no help is kept for a command that
// does not exist.
func TestEveryCommandHasHelp(t *testing.T) {
	names := map[string]bool{}
	for _, cm := range commands() {
		names[cm.name] = true
		if len(helps[cm.name].examples) == 0 {
			t.Errorf("%s has no example in helps", cm.name)
		}
	}
	for name := range helps {
		if !names[name] {
			t.Errorf("helps has an entry for %q, which is no command", name)
		}
	}
}

// cortex help CMD and cortex CMD --help print the same thing: the
// summary, the usage, the flags and examples; every example names the
// command and only flags it has.
func TestHelpOfEveryCommand(t *testing.T) {
	dir := t.TempDir()
	for _, cm := range commands() {
		t.Run(cm.name, func(t *testing.T) {
			code, viaHelp, errs := run(t, dir, nil, "help", cm.name)
			if code != ExitOK || errs != "" {
				t.Fatalf("cortex help %s: exit %d\n%s", cm.name, code, errs)
			}
			for _, flag := range []string{"--help", "-h"} {
				code, out, errs := run(t, dir, nil, cm.name, flag)
				if code != ExitOK || errs != "" {
					t.Fatalf("cortex %s %s: exit %d\n%s", cm.name, flag, code, errs)
				}
				if diff := cmp.Diff(viaHelp, out); diff != "" {
					t.Errorf("cortex help %s and cortex %s %s differ (-help +flag):\n%s", cm.name, cm.name, flag, diff)
				}
			}
			for _, want := range []string{cm.summary, "usage: cortex " + cm.name, "flags:", "-json", "examples:\n  cortex "} {
				if !strings.Contains(viaHelp, want) {
					t.Errorf("help lacks %q:\n%s", want, viaHelp)
				}
			}
			for _, ex := range helps[cm.name].examples {
				words := shellWords(ex)
				if len(words) < 2 || words[0] != "cortex" || words[1] != cm.name && !slices.Contains(cm.aliases, words[1]) {
					t.Errorf("example %q does not run cortex %s", ex, cm.name)
					continue
				}
				// The flags parse before -h is reached: an example with a
				// flag the command lacks is a usage error.
				code, out, errs := run(t, dir, nil, append(words[1:], "-h")...)
				if code != ExitOK || !strings.Contains(out, "usage: cortex "+cm.name) {
					t.Errorf("example %q does not parse: exit %d\n%s", ex, code, errs)
				}
			}
		})
	}
}

// shellWords splits a command line as a POSIX shell would for the
// quoting the examples use: single and double quotes, no escapes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// An unknown command, or help of one, is a usage error that names the
// commands that might have been meant; with --json, an error document.
func TestUnknownCommandSuggests(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"doctr"}, `unknown command "doctr"; did you mean doctor?`},
		{[]string{"help", "doctr"}, `unknown command "doctr"; did you mean doctor?`},
		{[]string{"Refs"}, "did you mean refs?"},
		{[]string{"definition"}, "did you mean def?"},
		{[]string{"implementations"}, "did you mean impl?"},
		{[]string{"precision"}, "did you mean precision-status?"},
		{[]string{"sgg"}, "did you mean sg?"},
		{[]string{"re"}, "did you mean refs, recall, rename, rewrite or remember?"},
		{[]string{"xyzzy"}, `unknown command "xyzzy" (cortex help lists them)`},
		{[]string{"help", "nosuch"}, `unknown command "nosuch" (cortex help lists them)`},
	}
	for _, tt := range tests {
		code, out, errs := run(t, dir, nil, tt.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, tt.msg) {
			t.Errorf("cortex %q: exit %d, stderr %q, want exit 2 and %q", tt.args, code, errs, tt.msg)
		}
		if strings.Contains(errs, "cortex cortex") || strings.Contains(errs, "cortex help:") && strings.Contains(errs, "usage:") {
			t.Errorf("cortex %q: stderr %q", tt.args, errs)
		}
		code, out, _ = run(t, dir, nil, append([]string{"--json"}, tt.args...)...)
		var doc errorJSON
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil || code != ExitUsage || doc.Error.ExitCode != ExitUsage || !strings.Contains(doc.Error.Message, tt.msg) {
			t.Errorf("cortex --json %q: exit %d, %v\n%s", tt.args, code, err, out)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"doctor", "doctor", 0},
		{"doctr", "doctor", 1},
		{"refz", "refs", 1},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"héllo", "hello", 1},
	} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
