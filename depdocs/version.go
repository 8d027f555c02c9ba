package depdocs

import (
	"fmt"
	"strings"

	"deps.dev/util/semver"
	gosemver "golang.org/x/mod/semver"
)

// semverSystem is deps.dev's version system for an ecosystem.
func semverSystem(e Ecosystem) semver.System {
	switch e {
	case NPM:
		return semver.NPM
	case PyPI:
		return semver.PyPI
	case Cargo:
		return semver.Cargo
	case Go:
		return semver.Go
	case Maven:
		return semver.Maven
	case NuGet:
		return semver.NuGet
	}
	return semver.DefaultSystem
}

// stripV removes one leading "v" or "V" before a digit: "v15.1.8" → "15.1.8".
func stripV(s string) string {
	if len(s) > 1 && (s[0] == 'v' || s[0] == 'V') && s[1] >= '0' && s[1] <= '9' {
		return s[1:]
	}
	return s
}

// goVersion parses a Go module version, adding the "v" Go requires.
func goVersion(s string) (string, bool) {
	v := "v" + stripV(s)
	return v, gosemver.IsValid(v)
}

// SameRelease reports whether a and b name the same release under e's
// rules:
//   - a "v" prefix does not matter: "15.1.8" and "v15.1.8" are the same;
//   - a prerelease is never folded into its release: "2.0.0-rc.1" is not
//     "2.0.0";
//   - equal versions by the ecosystem's precedence are the same
//     (PEP 440 "1.0rc1" and "1.0.0rc1", Maven "1.0" and "1.0.0", NuGet
//     "1.0" and "1.0.0.0"), except that build metadata, which precedence
//     ignores, must be equal as normalized strings ("1.0.0+a" is not
//     "1.0.0+b");
//   - a label that is not a version in e ("latest", a branch name) is an
//     opaque string, equal only to itself.
func SameRelease(e Ecosystem, a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	if e == Go {
		va, oka := goVersion(a)
		vb, okb := goVersion(b)
		return oka && okb && gosemver.Compare(va, vb) == 0 && gosemver.Build(va) == gosemver.Build(vb)
	}
	sys := semverSystem(e)
	if sys == semver.DefaultSystem {
		return stripV(a) == stripV(b)
	}
	if !fullSemver(e, a) || !fullSemver(e, b) {
		return false
	}
	va, err := sys.Parse(stripV(a))
	if err != nil || va.IsWildcard() {
		return false
	}
	vb, err := sys.Parse(stripV(b))
	if err != nil || vb.IsWildcard() {
		return false
	}
	if va.IsPrerelease() != vb.IsPrerelease() || va.Compare(vb) != 0 {
		return false
	}
	return buildOf(e, va) == buildOf(e, vb)
}

// fullSemver reports whether s has the three numeric components npm and
// Cargo versions always have; "15.1" is a range there, not a release.
func fullSemver(e Ecosystem, s string) bool {
	if e != NPM && e != Cargo {
		return true
	}
	core := stripV(s)
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	return strings.Count(core, ".") == 2
}

// buildOf is a version's build metadata (PEP 440's local version) as a
// normalized string, or "" when it has none.
func buildOf(e Ecosystem, v *semver.Version) string {
	full, bare := v.Canon(true), v.Canon(false)
	if e == PyPI {
		// PEP 440 local versions take part in precedence already; the
		// canonical form keeps them.
		return strings.ToLower(full)
	}
	if e == NuGet {
		// NuGet's canonical form drops metadata; compare the written one.
		s := v.String()
		if i := strings.IndexByte(s, '+'); i >= 0 {
			return strings.ToLower(s[i+1:])
		}
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(full, bare))
}

// IsVersion reports whether label is a version in e (after an optional
// "v"), as opposed to an opaque label such as "latest" or "main".
func IsVersion(e Ecosystem, label string) bool {
	label = strings.TrimSpace(label)
	if label == "" {
		return false
	}
	if e == Go {
		_, ok := goVersion(label)
		return ok
	}
	sys := semverSystem(e)
	if sys == semver.DefaultSystem {
		return false
	}
	v, err := sys.Parse(stripV(label))
	return err == nil && !v.IsWildcard() && fullSemver(e, label) && hasDigit(label)
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

// A LabelMatch is the provider label chosen for a resolved version.
type LabelMatch struct {
	// Label is the provider's label exactly as it publishes it, or "".
	Label string
	// Exact is true when Label names the same release as the resolved
	// version; false means no published label matches and the caller
	// must fall back (and say so).
	Exact bool
}

// MatchLabel finds, among a provider's published labels (unsorted, with or
// without "v"), the one naming the same release as resolved. It never
// picks a nearby version: no match gives the zero LabelMatch.
func MatchLabel(e Ecosystem, resolved string, labels []string) LabelMatch {
	// An identical string wins over an equal version, so "v1.0" is chosen
	// over "1.0.0" for a resolved "v1.0".
	for _, l := range labels {
		if strings.TrimSpace(l) == strings.TrimSpace(resolved) && resolved != "" {
			return LabelMatch{Label: l, Exact: true}
		}
	}
	for _, l := range labels {
		if SameRelease(e, resolved, l) {
			return LabelMatch{Label: l, Exact: true}
		}
	}
	return LabelMatch{}
}

// Satisfies reports whether version satisfies constraint under e's rules.
// It returns an error when either cannot be parsed.
//
// Go has no ranges: a go.mod requirement is a minimum, so for Go the
// constraint is a version and Satisfies reports version >= constraint.
func Satisfies(e Ecosystem, constraint, version string) (bool, error) {
	if e == Go {
		c, okc := goVersion(strings.TrimSpace(constraint))
		v, okv := goVersion(strings.TrimSpace(version))
		if !okc || !okv {
			return false, fmt.Errorf("depdocs: invalid Go version in %q, %q", constraint, version)
		}
		return gosemver.Compare(v, c) >= 0, nil
	}
	sys := semverSystem(e)
	c, err := sys.ParseConstraint(strings.TrimSpace(constraint))
	if err != nil {
		return false, err
	}
	v, err := sys.Parse(version)
	if err != nil {
		return false, err
	}
	return c.MatchVersion(v), nil
}
