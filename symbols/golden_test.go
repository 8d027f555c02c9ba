//go:build cgo

package symbols

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden extracts every fixture under testdata/<language>/ and
// compares the outline with its .golden file (regenerate with -update).
// The outline lists one symbol a line, with its name and doc positions,
// then the imports; the signatures and ranges are the extractor's own.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	langs := 0
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			if strings.HasSuffix(f, ".golden") || strings.HasSuffix(f, ".json.golden") {
				continue
			}
			fi, err := os.Stat(f)
			if err != nil || fi.IsDir() {
				continue
			}
			langs++
			t.Run(filepath.Base(dir)+"/"+filepath.Base(f), func(t *testing.T) {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				file, err := Extract(filepath.ToSlash(f), src)
				if err != nil {
					t.Fatal(err)
				}
				if err := file.Validate(len(src)); err != nil {
					t.Fatal(err)
				}
				if file.Errors {
					t.Errorf("the fixture has syntax errors")
				}
				got := outline(file)
				golden := f + ".golden"
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("outline (-want +got):\n%s", diff)
				}
			})
		}
	}
	if langs < 15 {
		t.Errorf("%d fixtures, want one per language", langs)
	}
}

// outline renders a file's symbols and imports, one a line.
func outline(f *File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "language %s package %q\n", f.Language, f.Package)
	for _, s := range f.Symbols {
		exp := "-"
		if s.Exported {
			exp = "+"
		}
		name := s.Name
		if s.Container != "" {
			name = s.Container + " :: " + s.Name
		}
		pkg := ""
		if s.Package != f.Package {
			pkg = fmt.Sprintf(" pkg=%q", s.Package)
		}
		fmt.Fprintf(&b, "%s %-9s %s  name %d:%d-%d:%d  range %d:%d-%d:%d  doc %d%s\n    %s\n", exp, s.Kind, name,
			s.NameRange.StartLine, s.NameRange.StartColumn, s.NameRange.EndLine, s.NameRange.EndColumn,
			s.Range.StartLine, s.Range.StartColumn, s.Range.EndLine, s.Range.EndColumn, s.DocLine, pkg, s.Signature)
	}
	for _, im := range f.Imports {
		js, _ := json.Marshal(im.Path)
		fmt.Fprintf(&b, "import %s", js)
		if im.Name != "" {
			fmt.Fprintf(&b, " name=%s", im.Name)
		}
		if im.Alias != "" {
			fmt.Fprintf(&b, " as=%s", im.Alias)
		}
		fmt.Fprintf(&b, "  %d:%d-%d:%d\n", im.Range.StartLine, im.Range.StartColumn, im.Range.EndLine, im.Range.EndColumn)
	}
	return b.String()
}
