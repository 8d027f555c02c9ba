package evidence

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/trust"
)

func goodRecord() Record {
	return Record{
		Kind: Definition, Provider: "scip", Provenance: trust.PrecisionIndex,
		Trust: trust.Exact, Exact: true, Confidence: 1,
		Path: "auth/service.go", StartLine: 12, StartColumn: 6, EndLine: 12, EndColumn: 17,
		Symbol: "scip-go gomod example.com/app v1 `example.com/app/auth`/AuthService#",
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Record)
		fields []string // fields the error must name; none means valid
	}{
		{"valid exact", func(*Record) {}, nil},
		{"valid located weak", func(r *Record) {
			r.Provenance, r.Trust, r.Exact, r.Confidence = trust.Lexical, trust.Weak, false, 0.2
		}, nil},
		{"valid without location", func(r *Record) {
			r.Kind, r.Provenance, r.Trust, r.Exact = Documentation, trust.VersionedDocs, trust.Structural, false
			r.Path, r.StartLine, r.StartColumn, r.EndLine, r.EndColumn = "", 0, 0, 0, 0
		}, nil},
		{"valid empty range at caret", func(r *Record) { r.EndColumn = r.StartColumn }, nil},
		{"valid multi-line", func(r *Record) { r.EndLine, r.EndColumn = 14, 1 }, nil},
		{"valid stale", func(r *Record) { *r = MarkStale(*r) }, nil},
		{"exact and stale", func(r *Record) { r.Stale = true }, []string{"exact", "trust"}},
		{"exact flag on structural tier", func(r *Record) {
			r.Provenance, r.Trust = trust.StructuralMatch, trust.Structural
		}, []string{"exact"}},
		{"exact tier without flag", func(r *Record) { r.Exact = false }, []string{"exact"}},
		{"stale record claiming exact tier", func(r *Record) { r.Exact, r.Stale = false, true }, []string{"trust"}},
		{"tier above method ceiling", func(r *Record) {
			r.Provenance = trust.StructuralMatch
		}, []string{"trust"}},
		{"lexical claiming near_exact", func(r *Record) {
			r.Provenance, r.Trust, r.Exact = trust.Lexical, trust.NearExact, false
		}, []string{"trust"}},
		{"unknown kind", func(r *Record) { r.Kind = "guess" }, []string{"kind"}},
		{"empty kind", func(r *Record) { r.Kind = "" }, []string{"kind"}},
		{"unknown tier", func(r *Record) { r.Trust, r.Exact = 9, false }, []string{"trust"}},
		{"zero tier", func(r *Record) { r.Trust, r.Exact = 0, false }, []string{"trust"}},
		{"unknown method", func(r *Record) { r.Provenance = "vibes" }, []string{"provenance"}},
		{"empty provider", func(r *Record) { r.Provider = " " }, []string{"provider"}},
		{"confidence NaN", func(r *Record) { r.Confidence = math.NaN() }, []string{"confidence"}},
		{"confidence above 1", func(r *Record) { r.Confidence = math.Nextafter(1, 2) }, []string{"confidence"}},
		{"confidence below 0", func(r *Record) { r.Confidence = -math.SmallestNonzeroFloat64 }, []string{"confidence"}},
		{"confidence +Inf", func(r *Record) { r.Confidence = math.Inf(1) }, []string{"confidence"}},
		{"zero start line", func(r *Record) { r.StartLine = 0 }, []string{"start_line"}},
		{"zero start column", func(r *Record) { r.StartColumn = 0 }, []string{"start_column"}},
		{"negative end column", func(r *Record) { r.EndColumn = -1 }, []string{"end_column"}},
		{"end line before start", func(r *Record) { r.EndLine = 11 }, []string{"end_line"}},
		{"end column before start", func(r *Record) { r.EndColumn = 5 }, []string{"end_line"}},
		{"positions without path", func(r *Record) { r.Path = "" }, []string{"start_line", "start_column", "end_line", "end_column"}},
		{"absolute path", func(r *Record) { r.Path = "/etc/passwd" }, []string{"path"}},
		{"windows absolute path", func(r *Record) { r.Path = "C:/x.go" }, []string{"path"}},
		{"windows drive", func(r *Record) { r.Path = "d:" }, []string{"path"}},
		{"parent escape", func(r *Record) { r.Path = "../outside.go" }, []string{"path"}},
		{"inner escape", func(r *Record) { r.Path = "a/../../b.go" }, []string{"path"}},
		{"bare dotdot", func(r *Record) { r.Path = ".." }, []string{"path"}},
		{"unclean path", func(r *Record) { r.Path = "a//b.go" }, []string{"path"}},
		{"dot element", func(r *Record) { r.Path = "./a.go" }, []string{"path"}},
		{"root itself", func(r *Record) { r.Path = "." }, []string{"path"}},
		{"NUL in path", func(r *Record) { r.Path = "a\x00.go" }, []string{"path"}},
		{"backslash path", func(r *Record) { r.Path = `..\x.go` }, []string{"path"}},
		{"stale_from on fresh record", func(r *Record) { r.Metadata.StaleFrom = trust.Exact }, []string{"metadata.stale_from"}},
		{"stale_from inconsistent", func(r *Record) {
			*r = MarkStale(*r)
			r.Trust = trust.Weak
		}, []string{"metadata.stale_from"}},
		{"invalid superseded record", func(r *Record) {
			bad := goodRecord()
			bad.Confidence = 2
			r.Metadata.Superseded = []Record{bad}
		}, []string{"metadata.superseded[0]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := goodRecord()
			tc.mutate(&r)
			err := r.Validate()
			if len(tc.fields) == 0 {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate() = nil, want errors on %v", tc.fields)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not match ErrInvalid", err)
			}
			for _, f := range tc.fields {
				if !namesField(err, f) {
					t.Errorf("error %q does not name field %q", err, f)
				}
			}
		})
	}
}

// namesField reports whether err holds a *FieldError for field.
func namesField(err error, field string) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if namesField(e, field) {
				return true
			}
		}
		return false
	}
	var fe *FieldError
	return errors.As(err, &fe) && fe.Field == field
}

func TestMarkStale(t *testing.T) {
	r := MarkStale(goodRecord())
	if !r.Stale || r.Exact || r.Trust != trust.InferredHigh || r.Metadata.StaleFrom != trust.Exact {
		t.Fatalf("MarkStale gave stale=%v exact=%v trust=%s from=%s", r.Stale, r.Exact, r.Trust, r.Metadata.StaleFrom)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if again := MarkStale(r); again.Metadata.StaleFrom != trust.Exact || again.Trust != trust.InferredHigh {
		t.Error("marking twice changed the record")
	}
	g := goodRecord()
	if r.ID() != g.ID() {
		t.Error("staleness changed the record's id")
	}
}

func TestIDStable(t *testing.T) {
	a, b := goodRecord(), goodRecord()
	b.Provider, b.Confidence = "other", 0.5
	if a.ID() != b.ID() {
		t.Error("provider or confidence changed the id")
	}
	b.StartColumn++
	if a.ID() == b.ID() {
		t.Error("a different location has the same id")
	}
	if !strings.HasPrefix(a.ID(), "e") || len(a.ID()) != 13 {
		t.Errorf("id %q is not e + 12 hex digits", a.ID())
	}
	// Pinned so that ids stay stable across releases.
	if got, want := a.ID(), "e7faa0c37e848"; got != want {
		t.Errorf("ID() = %s, want %s (ids must not change between releases)", got, want)
	}
}

func TestCheckPathAcceptsOrdinaryPaths(t *testing.T) {
	for _, p := range []string{"a.go", "a:b.go", "a/b/c.go", "日本/é.py", "..a/b", "a/..b", "a/b..", ".github/x.yml", "with space/x"} {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v", p, err)
		}
	}
}
