package symbols

import (
	"fmt"
	"slices"
	"testing"

	"github.com/codecortex/codecortex/syntax"
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

// TestRecoverCHeads: in C, after a macro the parser cannot read, a
// function's return type on its own line and its name on the next are
// one declaration: neither the prototype nor the definition's name is a
// use, and the calls stay.
func TestRecoverCHeads(t *testing.T) {
	src := `#include "yaml_private.h"

#define READ_LINE(parser,string)                                  \\
    (((CHECK_AT(parser->buffer,'\\r',0)                            \\
       && CHECK_AT(parser->buffer,'\\n',1)) ?  /* CR LF -> LF */    \\
     (parser->unread -= 2) : 0)

YAML_DECLARE(int)
yaml_parser_scan(yaml_parser_t *parser, yaml_token_t *token)
{
    return yaml_parser_fetch_more_tokens(parser);
}

static int
yaml_parser_fetch_more_tokens(yaml_parser_t *parser);

static int
yaml_parser_fetch_more_tokens(yaml_parser_t *parser)
{
    return yaml_parser_fetch_next_token(parser);
}
`
	f, err := Extract("scanner.c", []byte(src))
	if err != nil {
		t.Skip(err) // a build without cgo
	}
	if !f.Errors {
		t.Fatal("the fixture no longer breaks the parser: the test checks nothing")
	}
	var got []string
	for _, r := range f.Refs {
		if r.Name == "yaml_parser_fetch_more_tokens" || r.Name == "yaml_parser_fetch_next_token" {
			got = append(got, fmt.Sprintf("%s %d %s", r.Kind, r.Line, r.Name))
		}
	}
	want := []string{"call 11 yaml_parser_fetch_more_tokens", "call 20 yaml_parser_fetch_next_token"}
	if !slices.Equal(got, want) {
		t.Errorf("refs %q, want %q", got, want)
	}
	if err := f.Validate(len(src)); err != nil {
		t.Error(err)
	}
}

// TestReplaceRefs: in a segment that parses alone cleanly, its own uses
// stand for the broken tree's, in source order.
func TestReplaceRefs(t *testing.T) {
	whole := []Ref{{Name: "a", Byte: 5}, {Name: "proto", Byte: 20}, {Name: "head", Byte: 40}, {Name: "b", Byte: 90}}
	clean := []syntax.Span{{Start: 10, End: 30}, {Start: 35, End: 60}}
	seg := []Ref{{Name: "call", Byte: 50}}
	var got []string
	for _, r := range replaceRefs(whole, clean, seg) {
		got = append(got, fmt.Sprintf("%s@%d", r.Name, r.Byte))
	}
	if want := []string{"a@5", "call@50", "b@90"}; !slices.Equal(got, want) {
		t.Errorf("refs %q, want %q", got, want)
	}
}
