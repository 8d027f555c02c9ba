package depdocs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestSameRelease(t *testing.T) {
	for _, c := range []struct {
		eco  Ecosystem
		a, b string
		want bool
	}{
		{NPM, "15.1.8", "v15.1.8", true},
		{NPM, "15.1.8", "15.1.8", true},
		{NPM, "2.0.0-rc.1", "2.0.0", false},
		{NPM, "2.0.0", "2.0.0-rc.1", false},
		{NPM, "2.0.0-rc.1", "v2.0.0-rc.1", true},
		{NPM, "1.0.0+a", "1.0.0+b", false}, // precedence ignores build metadata; we do not
		{NPM, "1.0.0+a", "1.0.0+A", true},  // build metadata compared as a normalized string
		{NPM, "1.0.0+a", "1.0.0", false},
		{NPM, "latest", "latest", true},
		{NPM, "latest", "15.1.8", false},
		{NPM, "main", "master", false},
		{NPM, "15.1", "15.1.0", false}, // "15.1" is a range in npm, not a version
		{PyPI, "1.0rc1", "1.0.0rc1", true},
		{PyPI, "1.0", "1.0.0", true},
		{PyPI, "1.0rc1", "1.0", false},
		{PyPI, "1.0+local", "1.0", false},
		{PyPI, "1.0.post1", "1.0", false},
		{PyPI, "v2.31.0", "2.31.0", true},
		{Go, "v1.2.3", "1.2.3", true},
		{Go, "v2.0.0+incompatible", "v2.0.0", false},
		{Go, "v1.17.1-0.20250423142747-f3939df9aa3c", "v1.17.1-0.20250423142747-f3939df9aa3c", true},
		{Go, "v0.8.0-rc.1", "v0.8.0", false},
		{Maven, "1.0", "1.0.0", true},
		{Maven, "1.0-ga", "1.0", true},
		{Maven, "1.0-SNAPSHOT", "1.0", false},
		{Maven, "1.0-rc1", "1.0", false},
		{NuGet, "1.0", "1.0.0.0", true},
		{NuGet, "1.0.0-beta", "1.0.0", false},
		{Cargo, "1.0.98", "v1.0.98", true},
		{Cargo, "1.0.98", "1.0.97", false},
		{Cargo, "", "", false},
	} {
		t.Run(fmt.Sprintf("%s/%s=%s", c.eco, c.a, c.b), func(t *testing.T) {
			if got := SameRelease(c.eco, c.a, c.b); got != c.want {
				t.Errorf("SameRelease(%s, %q, %q) = %v, want %v", c.eco, c.a, c.b, got, c.want)
			}
			if got := SameRelease(c.eco, c.b, c.a); got != c.want {
				t.Errorf("not symmetric: SameRelease(%s, %q, %q) = %v", c.eco, c.b, c.a, got)
			}
		})
	}
}

func TestMatchLabel(t *testing.T) {
	labels := []string{"v14.2.3", "15.1.8", "v15.0.0", "canary", "v16.0.0-rc.1", "main"}
	for _, c := range []struct {
		eco      Ecosystem
		resolved string
		want     LabelMatch
	}{
		{NPM, "15.1.8", LabelMatch{"15.1.8", true}},
		{NPM, "v15.1.8", LabelMatch{"15.1.8", true}},
		{NPM, "14.2.3", LabelMatch{"v14.2.3", true}},
		{NPM, "16.0.0", LabelMatch{}}, // only the rc is published: no fold
		{NPM, "15.1.9", LabelMatch{}}, // no nearby version is picked
		{NPM, "canary", LabelMatch{"canary", true}},
		{NPM, "Canary", LabelMatch{}}, // opaque labels are exact strings
		{NPM, "15.0.0", LabelMatch{"v15.0.0", true}},
	} {
		if got := MatchLabel(c.eco, c.resolved, labels); got != c.want {
			t.Errorf("MatchLabel(%s, %q) = %+v, want %+v", c.eco, c.resolved, got, c.want)
		}
	}
	// An identical string is preferred over an equal version.
	if got := MatchLabel(PyPI, "1.0", []string{"1.0.0", "1.0"}); got.Label != "1.0" {
		t.Errorf("got %q, want the identical label", got.Label)
	}
}

func TestIsVersion(t *testing.T) {
	for _, c := range []struct {
		eco   Ecosystem
		label string
		want  bool
	}{
		{NPM, "15.1.8", true}, {NPM, "v15.1.8", true}, {NPM, "latest", false}, {NPM, "main", false},
		{NPM, "^1.0.0", false}, {NPM, "", false}, {PyPI, "1.0rc1", true}, {PyPI, "develop", false},
		{Go, "v1.2.3", true}, {Go, "master", false},
	} {
		if got := IsVersion(c.eco, c.label); got != c.want {
			t.Errorf("IsVersion(%s, %q) = %v, want %v", c.eco, c.label, got, c.want)
		}
	}
}

// TestSatisfies pins the constraint semantics the corpus check recorded
// (testdata/corpus/truth/version_semantics_check.txt).
func TestSatisfies(t *testing.T) {
	for _, c := range []struct {
		eco             Ecosystem
		constraint, ver string
		want, wantErr   bool
	}{
		{NPM, "^15.0.0", "15.4.3", true, false},
		{NPM, "^15.0.0", "15.5.0-rc.1", false, false},
		{NPM, "1.2 - 1.4", "1.4.9", true, false},
		{NPM, "~1.2.3", "1.3.0", false, false},
		{PyPI, "~=2.2", "2.9", true, false},
		{PyPI, "~=2.2", "3.0", false, false},
		{PyPI, "==1.0", "1.0.0", true, false},
		{PyPI, "===1.0", "1.0.0", false, true},
		{Cargo, "1.2", "1.9.0", true, false},
		{Cargo, "1.2", "2.0.0", false, false},
		{Cargo, "^0.2", "0.3.0", false, false},
		{Cargo, "=1.2.3", "1.2.4", false, false},
		{NuGet, "[1.0,2.0)", "2.0", false, false},
		{NuGet, "[1.0,2.0)", "1.5", true, false},
		{NuGet, "1.0", "3.0", true, false},
		{Go, "v1.2.0", "1.2.3", true, false},
		{Go, "v1.3.0", "v1.2.3", false, false},
		{Go, "latest", "v1.2.3", false, true},
	} {
		got, err := Satisfies(c.eco, c.constraint, c.ver)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("Satisfies(%s, %q, %q) = %v, %v; want %v (error %v)", c.eco, c.constraint, c.ver, got, err, c.want, c.wantErr)
		}
	}
}

func genSemver() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		v := fmt.Sprintf("%d.%d.%d", rapid.IntRange(0, 30).Draw(t, "major"), rapid.IntRange(0, 30).Draw(t, "minor"), rapid.IntRange(0, 30).Draw(t, "patch"))
		if rapid.Bool().Draw(t, "pre") {
			v += "-" + rapid.SampledFrom([]string{"rc.1", "alpha", "beta.2", "0"}).Draw(t, "prerelease")
		}
		if rapid.Bool().Draw(t, "build") {
			v += "+" + rapid.SampledFrom([]string{"a", "b", "sha.1", "001"}).Draw(t, "buildmeta")
		}
		return v
	})
}

// TestSameReleaseProperties: reflexive, symmetric, insensitive to a "v",
// never folding a prerelease into its release, and agreeing with equal
// precedence plus equal build metadata.
func TestSameReleaseProperties(t *testing.T) {
	ecos := []Ecosystem{NPM, Cargo, NuGet, Maven, PyPI, Go}
	rapid.Check(t, func(t *rapid.T) {
		e := rapid.SampledFrom(ecos).Draw(t, "ecosystem")
		a := genSemver().Draw(t, "a")
		b := genSemver().Draw(t, "b")
		if IsVersion(e, a) && !SameRelease(e, a, a) {
			t.Fatalf("not reflexive: %s", a)
		}
		if SameRelease(e, a, b) != SameRelease(e, b, a) {
			t.Fatalf("not symmetric: %s %s", a, b)
		}
		if SameRelease(e, a, b) != SameRelease(e, "v"+a, b) {
			t.Fatalf("v prefix matters: %s %s", a, b)
		}
		// A named prerelease ("-rc.1", not Maven's numeric "-0", which
		// Maven defines equal to the release) is never its release.
		noBuild := strings.SplitN(a, "+", 2)[0]
		core, pre, isPre := strings.Cut(noBuild, "-")
		if isPre && pre[0] >= 'a' && pre[0] <= 'z' && SameRelease(e, a, core) {
			t.Fatalf("prerelease %s folded into %s", a, core)
		}
		if SameRelease(e, a, b) {
			m := MatchLabel(e, a, []string{"x", b, "y"})
			if !m.Exact || m.Label != b {
				t.Fatalf("MatchLabel(%s, [%s]) = %+v", a, b, m)
			}
		}
	})
}

// TestMatchLabelNeverInvents: a match is always one of the labels, and
// only one naming the same release.
func TestMatchLabelNeverInvents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		labels := rapid.SliceOfN(rapid.OneOf(genSemver(), rapid.SampledFrom([]string{"latest", "main", "v1.0.0", "next"})), 0, 6).Draw(t, "labels")
		resolved := genSemver().Draw(t, "resolved")
		m := MatchLabel(NPM, resolved, labels)
		if m.Label == "" {
			if m.Exact {
				t.Fatal("exact without a label")
			}
			for _, l := range labels {
				if SameRelease(NPM, resolved, l) {
					t.Fatalf("missed %s for %s", l, resolved)
				}
			}
			return
		}
		if !contains(labels, m.Label) || !SameRelease(NPM, resolved, m.Label) {
			t.Fatalf("MatchLabel(%s, %v) = %+v", resolved, labels, m)
		}
	})
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func ExampleMatchLabel() {
	// A provider publishes labels as the library owner configured them:
	// unsorted, some with "v", some not versions at all.
	labels := []string{"canary", "v15.0.0", "v15.1.8", "v16.0.0-rc.1"}
	fmt.Println(MatchLabel(NPM, "15.1.8", labels))
	fmt.Println(MatchLabel(NPM, "16.0.0", labels))
	// Output:
	// {v15.1.8 true}
	// { false}
}

var _ = cmp.Diff
