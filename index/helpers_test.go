package index

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/symbols"
)

// fakeExtract stands in for the tree-sitter extractor in these tests. It
// reads a small Go-like language line by line: "package p", "func Name(",
// "func (r *T) Name(", "type Name ...", "class Name {" (whose indented
// funcs are its methods), "const Name = ..." and "var Name = ...". A
// definition whose line ends with "{" ends at the first later line that
// is "}" at its indentation; "//" lines directly above are its comments.
// Files not ending in .go or .fake have no symbols.
func fakeExtract(path string, src []byte) (*symbols.File, error) {
	if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".fake") {
		return &symbols.File{Path: path, Language: languageOf(path)}, nil
	}
	f := &symbols.File{Path: path, Language: "go"}
	lines := strings.Split(string(src), "\n")
	offsets := make([]int, len(lines)+1)
	for i, l := range lines {
		offsets[i+1] = offsets[i] + len(l) + 1
	}
	type open struct {
		indent    string
		container string
	}
	var stack []open
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " \t")
		indent := line[:len(line)-len(trimmed)]
		for len(stack) > 0 && len(indent) <= len(stack[len(stack)-1].indent) && trimmed == "}" {
			stack = stack[:len(stack)-1]
		}
		if m := fakePackage.FindStringSubmatch(line); m != nil {
			f.Package = m[1]
			continue
		}
		m := fakeDef.FindStringSubmatchIndex(trimmed)
		if m == nil {
			continue
		}
		word := trimmed[m[2]:m[3]]
		name := trimmed[m[6]:m[7]]
		kind := map[string]symbols.Kind{"func": symbols.Function, "type": symbols.Type, "class": symbols.Class,
			"const": symbols.Constant, "var": symbols.Variable}[word]
		container := ""
		if m[4] >= 0 {
			container = strings.TrimLeft(trimmed[m[4]:m[5]], "*")
			kind = symbols.Method
		}
		if len(stack) > 0 && stack[len(stack)-1].container != "" && kind == symbols.Function {
			container, kind = stack[len(stack)-1].container, symbols.Method
		}
		end := i
		if strings.HasSuffix(trimmed, "{") {
			for j := i + 1; j < len(lines); j++ {
				if lines[j] == indent+"}" {
					end = j
					break
				}
			}
			c := ""
			if kind == symbols.Class {
				c = name
			}
			stack = append(stack, open{indent: indent, container: c})
		}
		doc := i
		for doc > 0 && strings.HasPrefix(strings.TrimSpace(lines[doc-1]), "//") {
			doc--
		}
		col := func(line, b int) int { return utf8.RuneCountInString(lines[line][:b]) + 1 }
		nameStart := len(indent) + m[6]
		r := unicode.ReplacementChar
		for _, c := range name {
			r = c
			break
		}
		f.Symbols = append(f.Symbols, symbols.Symbol{
			Name: name, Kind: kind, Container: container, Package: f.Package,
			Signature: strings.TrimSuffix(strings.TrimSpace(line), " {"),
			Exported:  unicode.IsUpper(r),
			NameRange: symbols.Range{StartLine: i + 1, StartColumn: col(i, nameStart), EndLine: i + 1,
				EndColumn: col(i, nameStart+len(name)), StartByte: offsets[i] + nameStart, EndByte: offsets[i] + nameStart + len(name)},
			Range: symbols.Range{StartLine: i + 1, StartColumn: col(i, len(indent)), EndLine: end + 1,
				EndColumn: utf8.RuneCountInString(lines[end]) + 1, StartByte: offsets[i] + len(indent), EndByte: offsets[end] + len(lines[end])},
			DocLine: doc + 1,
		})
	}
	return f, nil
}

var (
	fakePackage = regexp.MustCompile(`^package (\w+)`)
	fakeDef     = regexp.MustCompile(`^(func|type|class|const|var) (?:\(\w+ ([*\w]+)\) )?(\w+)`)
)

// open opens the index of dir with the fake extractor and no time bound,
// closing it when the test ends.
func openTest(t testing.TB, dir string, mod func(*Options)) *Index {
	t.Helper()
	opts := Options{Dir: dir, Extract: fakeExtract, ExtractorVersion: "fake-1", Budget: -1}
	if mod != nil {
		mod(&opts)
	}
	ix, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// gitRepo creates a git repository in a new temporary directory with
// files committed on branch main, and returns the directory and a
// function running git in it.
func gitRepo(t *testing.T, files map[string]string) (string, func(args ...string) string) {
	t.Helper()
	gitPath := testtool.Require(t, "git", "apt-get install git")
	dir := testtool.WriteTree(t, files)
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string { return runGit(t, gitPath, dir, args...) }
	run("init", "-q", "-b", "main")
	run("add", "-A")
	run("commit", "-q", "-m", "first")
	ageTree(t, dir)
	return dir, run
}

func runGit(t *testing.T, gitPath, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{
		Path: gitPath, Args: args, Dir: dir,
		Env: append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"),
	})
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, res.Stderr)
	}
	return strings.TrimSpace(string(res.Stdout))
}

// writeTree writes files into a new temporary directory and dates them an
// hour back, as a tree is before anyone edits it (files written this very
// moment are read again by the next refresh, which some tests count).
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := testtool.WriteTree(t, files)
	ageTree(t, dir)
	return dir
}

// ageTree dates every file and directory under dir an hour back.
func ageTree(t testing.TB, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (d.Type().IsRegular() || d.IsDir()) {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// writeFile writes a file under dir, making sure its mtime differs from
// what the index saw before (the kernel's clock is coarse).
func writeFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	old, statErr := os.Stat(p)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if statErr == nil {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().Equal(old.ModTime()) {
			later := old.ModTime().Add(time.Second)
			os.Chtimes(p, later, later)
		}
	}
}
