package symbols

import (
	"slices"
	"testing"
)

// TestRecoverBroken: a construct the parser cannot read (here a generic
// call signature on the line after another member, which the grammar
// takes for type arguments) must not cost the declarations after it.
func TestRecoverBroken(t *testing.T) {
	src := `export interface Factory {
    <T extends Function | undefined | null>(fn: T): T
    // named
    <T extends Function | undefined | null>(name: string, fn: T): T
    bound: number
}

/** makes one */
function createFactory(auto: boolean): Factory {
    return makeIt(auto)
}

export type Producer<T> = (draft: T) => void

export class Holder {
    run(): void { createFactory(true) }
}
`
	f, err := Extract("a.ts", []byte(src))
	if err != nil {
		t.Skip(err) // a build without cgo
	}
	if !f.Errors {
		t.Fatal("the fixture no longer breaks the parser: the test checks nothing")
	}
	var got []string
	for _, s := range f.Symbols {
		got = append(got, s.Name)
	}
	for _, want := range []string{"createFactory", "Producer", "Holder", "run"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is missing: %q", want, got)
		}
	}
	for _, s := range f.Symbols {
		if s.Name == "createFactory" && (s.NameRange.StartLine != 9 || s.DocLine != 8 || string([]byte(src)[s.NameRange.StartByte:s.NameRange.EndByte]) != "createFactory") {
			t.Errorf("createFactory at line %d (doc %d), bytes %q", s.NameRange.StartLine, s.DocLine, src[s.NameRange.StartByte:s.NameRange.EndByte])
		}
	}
	calls := 0
	for _, r := range f.Refs {
		if r.Name == "createFactory" && r.Line == 16 {
			calls++
		}
	}
	if calls != 1 {
		t.Errorf("%d refs to createFactory on line 16, want 1", calls)
	}
	if err := f.Validate(len(src)); err != nil {
		t.Error(err)
	}
}
